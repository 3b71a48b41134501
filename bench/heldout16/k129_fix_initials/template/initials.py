"""Initials for name badges: python3 initials.py NAME... prints each name's initials."""

import sys


def initials(name):
    """The first letter of each part of the name, in capitals, each followed by a dot.

    Parts are separated by spaces or hyphens: "Jean-Luc Picard" gives "J.L.P.".
    """
    parts = name.split(" ")
    return "".join(part[0].upper() + "." for part in parts)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(initials(name))
