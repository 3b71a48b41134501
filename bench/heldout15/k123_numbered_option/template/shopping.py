"""Print a shopping list with the same items added up: python3 shopping.py list.txt"""

import argparse


def read_items(path):
    """(item, quantity) pairs sorted by item, from lines `item quantity` or just `item` (quantity 1);
    the same item on several lines is added up, and blank lines are skipped."""
    totals = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if len(parts) > 1 and parts[-1].isdigit():
                name, count = " ".join(parts[:-1]), int(parts[-1])
            else:
                name, count = " ".join(parts), 1
            totals[name.lower()] = totals.get(name.lower(), 0) + count
    return sorted(totals.items())


def main():
    parser = argparse.ArgumentParser(description="Print a shopping list with the same items added up.")
    parser.add_argument("file")
    args = parser.parse_args()
    for name, count in read_items(args.file):
        print(f"{name} x{count}")


if __name__ == "__main__":
    main()
