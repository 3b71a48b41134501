#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > report.py <<'PY'
"""Print the month's sales per shop: python3 report.py sales.csv"""

import csv
import sys


def load(path):
    """The CSV file's rows, as dicts keyed by its header."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def render(rows):
    """The report on `rows`: the total and number of sales of each shop, then the grand total."""
    totals = {}
    counts = {}
    for row in rows:
        shop = row["shop"]
        totals[shop] = totals.get(shop, 0) + float(row["amount"])
        counts[shop] = counts.get(shop, 0) + 1
    lines = ["Sales by shop"]
    for shop in sorted(totals, key=lambda s: (-totals[s], s)):
        sales = "1 sale" if counts[shop] == 1 else f"{counts[shop]} sales"
        lines.append(f"{shop}: {totals[shop]:.2f} ({sales})")
    lines.append(f"total: {sum(totals.values()):.2f}")
    return "\n".join(lines)


def main():
    print(render(load(sys.argv[1])))


if __name__ == "__main__":
    main()
PY
