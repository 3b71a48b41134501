#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > rides.py <<'PY'
import csv
import json

riders = {}
with open("rides.csv", newline="") as f:
    for row in csv.DictReader(f):
        rider = riders.setdefault(row["rider"], {"rides": 0, "km": 0.0})
        rider["rides"] += 1
        rider["km"] += float(row["km"])
summary = {name: {"rides": r["rides"], "km": round(r["km"], 1)} for name, r in sorted(riders.items())}
with open("riders.json", "w") as f:
    json.dump(summary, f, indent=2)
PY
