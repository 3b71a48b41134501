"""Show the price list with the new prices from a CSV file (columns item, price):
python3 importer.py stock.csv"""

import csv
import sys

from shop import PRICES, parse_price, show


def load(path):
    prices = dict(PRICES)
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            prices[row["item"]] = parse_price(row["price"])
    return prices


if __name__ == "__main__":
    show(load(sys.argv[1]))
