#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > decades.py <<'PY'
import csv
import sys

decades = {}
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        decade = int(row["year"]) // 10 * 10
        decades.setdefault(decade, []).append(row["title"])
for decade in sorted(decades):
    print(f"{decade}s: {', '.join(decades[decade])}")
PY
