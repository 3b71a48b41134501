"""Split a list of jobs into batches of a fixed size."""


def chunk(items, size):
    """Split items into lists of at most `size` items, in order; the last one may be shorter."""
    if size < 1:
        raise ValueError("size must be at least 1")
    batches = []
    for start in range(0, len(items) - size + 1, size):
        batches.append(items[start : start + size])
    return batches


def batch_count(n_items, size):
    """How many batches chunk() makes from n_items items."""
    return len(chunk(list(range(n_items)), size))
