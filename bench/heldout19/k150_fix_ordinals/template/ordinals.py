"""Turning finishing places into ordinals for the race results."""

SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n):
    """The ordinal of a place: 1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
    return f"{n}{SUFFIXES.get(n % 10, 'th')}"


def results(names):
    """One line per runner, in finishing order: '1st Ada', '2nd Bo', ..."""
    return [f"{ordinal(place)} {name}" for place, name in enumerate(names, start=1)]
