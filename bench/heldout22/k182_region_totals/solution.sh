#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > region_totals.py <<'PY'
import csv

totals = {}
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["region"]] = totals.get(row["region"], 0) + float(row["amount"])
for region, total in sorted(totals.items(), key=lambda item: -item[1]):
    print(f"{region}: {total:.2f}")
PY
