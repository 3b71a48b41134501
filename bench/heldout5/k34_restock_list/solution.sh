#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > restock.py <<'PY'
import csv
import sys

with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
orders = []
for row in rows:
    missing = int(row["minimum"]) - int(row["in_stock"])
    if missing > 0:
        orders.append((-missing, row["item"]))
if not orders:
    print("nothing to order")
else:
    for missing, item in sorted(orders):
        print(f"{item}: order {-missing}")
    print(f"total: {-sum(m for m, _ in orders)}")
PY
