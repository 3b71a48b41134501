"""Shorten titles to fit a column: python3 shorten.py WIDTH TEXT..."""

import sys


def shorten(text, width):
    """`text` with its spaces tidied, if it fits in `width` characters; otherwise cut so that it
    ends in "..." and is exactly `width` characters long."""
    text = " ".join(text.split())
    if len(text) < width:
        return text
    return text[:width] + "..."


if __name__ == "__main__":
    width = int(sys.argv[1])
    for text in sys.argv[2:]:
        print(shorten(text, width))
