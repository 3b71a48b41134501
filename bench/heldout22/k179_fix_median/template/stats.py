"""Small statistics helpers for the greenhouse sensor readings."""


def mean(values):
    """The arithmetic mean of a non-empty list of numbers."""
    return sum(values) / len(values)


def median(values):
    """The middle value of a non-empty list of numbers; for an even count, the mean of the two
    middle ones."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 0:
        return (ordered[middle] + ordered[middle + 1]) / 2
    return ordered[middle]


def spread(values):
    """The difference between the largest and the smallest value."""
    return max(values) - min(values)
