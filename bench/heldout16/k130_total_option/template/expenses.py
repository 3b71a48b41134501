"""List expenses: python3 expenses.py FILE prints each `name amount` line of FILE as `name: 3.20`."""

import argparse


def read_expenses(path):
    """(name, amount) for each line that is not blank; the amount is the last word."""
    items = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            name, amount = line.rsplit(maxsplit=1)
            items.append((name.strip(), float(amount)))
    return items


def main():
    parser = argparse.ArgumentParser(description="List expenses.")
    parser.add_argument("file")
    args = parser.parse_args()
    for name, amount in read_expenses(args.file):
        print(f"{name}: {amount:.2f}")


if __name__ == "__main__":
    main()
