"""Say how long ago something happened, the way a news feed shows it."""

UNITS = [("day", 24 * 60 * 60), ("hour", 60 * 60), ("minute", 60)]


def ago(seconds):
    """'just now' for less than a minute, else the largest whole unit that fits:
    '1 minute ago', '5 minutes ago', '1 hour ago', '3 days ago'."""
    for name, size in UNITS:
        if seconds > size:
            count = seconds // size
            return f"{count} {name}s ago"
    return "just now"


if __name__ == "__main__":
    import sys

    print(ago(int(sys.argv[1])))
