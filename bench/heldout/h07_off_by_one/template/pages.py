def page(items, number, size=3):
    """The items on page `number` (pages count from 1)."""
    start = number * size
    return items[start:start + size]


if __name__ == "__main__":
    print(page(list(range(10)), 1))
