"""Prints a receipt for a basket file, one `item price` per line: python3 receipt.py basket.txt"""

import sys

from money import fmt_money, parse_money


def main(path):
    total = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            item, price = line.rsplit(maxsplit=1)
            cents = parse_money(price)
            total += cents
            print(f"{item:<20}{fmt_money(cents):>9}")
    print(f"{'TOTAL':<20}{fmt_money(total):>9}")


if __name__ == "__main__":
    main(sys.argv[1])
