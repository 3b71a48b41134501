#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > monthly.py <<'PY'
import csv
import sys


def main(path):
    months = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            month = row["date"][:7]
            count, total = months.get(month, (0, 0.0))
            months[month] = (count + 1, total + float(row["amount"]))
    if not months:
        print("no expenses")
        return
    for month in sorted(months):
        count, total = months[month]
        print(f"{month}: {total:.2f} ({count} expenses)")
    top = min(sorted(months), key=lambda m: -round(months[m][1], 2))
    print(f"most spent in {top}")


main(sys.argv[1])
PY
