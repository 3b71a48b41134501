"""Print the month's sales per shop: python3 report.py sales.csv"""

import csv
import sys


def main():
    path = sys.argv[1]
    totals = {}
    counts = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            shop = row["shop"]
            totals[shop] = totals.get(shop, 0) + float(row["amount"])
            counts[shop] = counts.get(shop, 0) + 1
    print("Sales by shop")
    for shop in sorted(totals, key=lambda s: (-totals[s], s)):
        sales = "1 sale" if counts[shop] == 1 else f"{counts[shop]} sales"
        print(f"{shop}: {totals[shop]:.2f} ({sales})")
    print(f"total: {sum(totals.values()):.2f}")


if __name__ == "__main__":
    main()
