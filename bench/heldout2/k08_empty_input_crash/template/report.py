"""Summarise an orders file: python3 report.py ORDERS.json"""

import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def summary(orders):
    total = sum(order["price"] * order["qty"] for order in orders)
    average = total / len(orders)
    return f"{len(orders)} orders, total {total:.2f}, average {average:.2f}"


if __name__ == "__main__":
    print(summary(load(sys.argv[1])))
