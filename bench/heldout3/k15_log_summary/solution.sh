#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > logsummary.py <<'PY'
import sys
from collections import defaultdict

durations = defaultdict(list)
with open(sys.argv[1]) as f:
    for line in f:
        parts = line.split()
        if len(parts) == 5:
            durations[int(parts[3])].append(int(parts[4]))
for code in sorted(durations):
    values = durations[code]
    print(f"{code}: {len(values)} requests, average {round(sum(values) / len(values))} ms")
PY
