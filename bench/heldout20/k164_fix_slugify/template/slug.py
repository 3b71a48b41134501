"""URL slugs for the blog's post titles."""

import re


def slugify(title):
    """'Hello, World!' -> 'hello-world': lower case letters and digits, one dash between words."""
    slug = title.lower()
    slug = re.sub(r"[^a-z0-9]", "-", slug)
    return slug.strip("-")


def unique_slug(title, taken):
    """The title's slug, with -2, -3, ... on the end if that slug is already in `taken`."""
    slug = slugify(title)
    n = 1
    while slug in taken:
        n += 1
        slug = f"{slugify(title)}{n}"
    return slug
