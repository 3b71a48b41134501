"""Small helpers for a class's test scores."""


def average(scores):
    """The mean of `scores`."""
    return sum(scores) / len(scores)


def best(scores):
    """The highest score, or None when there are none."""
    return max(scores) if scores else None


def passed(scores, mark):
    """The scores at or above `mark`, in their order."""
    return [s for s in scores if s >= mark]
