"""Stock report: python3 report.py [FILE] lists each item's stock and what to reorder."""

import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "stock.csv"
    rows = load(path)
    for row in rows:
        qty = int(row["qty"])
        line = f"{row['item']} ({row['shelf']}): {qty} left"
        if qty < int(row["min_qty"]):
            line += f", reorder {int(row['min_qty']) - qty}"
        print(line)
    print(f"{sum(int(row['qty']) for row in rows)} items in stock")


if __name__ == "__main__":
    main()
