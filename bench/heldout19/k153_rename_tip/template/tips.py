"""Working out the tip on a restaurant bill."""

DEFAULT_PERCENT = 12.5


def tip(total, percent=DEFAULT_PERCENT):
    """The tip on a bill of `total` pounds, rounded to the penny."""
    return round(total * percent / 100, 2)


def tip_percent(total, paid):
    """How many percent of `total` the extra in `paid` is."""
    return round((paid - total) * 100 / total, 1)
