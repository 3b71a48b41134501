"""Print the total of a small order."""

ITEMS = [("tea", 1.15), ("scone", 0.99), ("jam", 2.15)]


def total(items):
    return int(sum(price for _, price in items) * 100) / 100


if __name__ == "__main__":
    print(f"total: {total(ITEMS):.2f}")
