"""Helpers for people's names."""


def full_name(first, last):
    """`first` and `last` as one name, each capitalised."""
    return f"{first.capitalize()} {last.capitalize()}"


def surname_first(name):
    """"Grace Hopper" as "Hopper, Grace"."""
    *given, last = name.split()
    return f"{last}, {' '.join(given)}"
