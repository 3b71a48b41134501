#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > totals.py <<'PY'
import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["region"]] += float(row["amount"])
for region in sorted(totals):
    print(f"{region}: {totals[region]:.2f}")
PY
