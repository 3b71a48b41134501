"""Compare release versions like 1.10.2 and pick the newest of several."""


def parse(version):
    """Turn "v1.10.2" into (1, 10, 2); a leading v is allowed."""
    text = version.strip().lstrip("vV")
    return tuple(text.split("."))


def is_newer(candidate, current):
    return parse(candidate) > parse(current)


def newest(versions):
    if not versions:
        raise ValueError("no versions given")
    return max(versions, key=parse)


def sort_versions(versions):
    """Oldest first."""
    return sorted(versions, key=parse)
