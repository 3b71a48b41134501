#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat >> textutils.py <<'PY'


def slugify(title):
    """`title` as a URL slug: lowercase letters and digits, with single hyphens between."""
    slug = ""
    for char in title.lower():
        if "a" <= char <= "z" or "0" <= char <= "9":
            slug += char
        elif slug and not slug.endswith("-"):
            slug += "-"
    return slug.strip("-")
PY
