import re


def slugify(title: str) -> str:
    """Lower-case words joined by single hyphens; anything that is not a letter or digit separates words."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)
