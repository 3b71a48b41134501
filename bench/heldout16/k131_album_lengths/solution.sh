#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > albums.py <<'PY'
import csv
import sys
from collections import defaultdict

counts = defaultdict(int)
seconds = defaultdict(int)
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        minutes, secs = row["length"].split(":")
        counts[row["album"]] += 1
        seconds[row["album"]] += int(minutes) * 60 + int(secs)
for album in sorted(counts):
    n = counts[album]
    total = seconds[album]
    print(f"{album}: {n} track{'' if n == 1 else 's'}, {total // 60}:{total % 60:02d}")
PY
