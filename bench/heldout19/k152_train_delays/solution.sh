#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > delays.py <<'PY'
import csv
import sys


def minutes(text):
    hours, mins = text.split(":")
    return int(hours) * 60 + int(mins)


lines = {}
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        delay = minutes(row["actual"]) - minutes(row["scheduled"])
        lines.setdefault(row["line"], []).append(delay)
for name in sorted(lines):
    delays = lines[name]
    late = [d for d in delays if d > 0]
    print(f"{name}: {len(late)} of {len(delays)} late, worst {max(late, default=0)} min")
PY
