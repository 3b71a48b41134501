"""Split a list of search results into pages for the results screen."""


def page_count(total, size):
    """How many pages `total` items fill with `size` items a page (an empty list still has one page)."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return max(1, total // size)


def page(items, number, size):
    """The items on page `number`, counting pages from 1."""
    if number < 1 or number > page_count(len(items), size):
        raise IndexError(f"there is no page {number}")
    start = (number - 1) * size
    return items[start : start + size]


def footer(number, total, size):
    return f"page {number} of {page_count(total, size)}"
