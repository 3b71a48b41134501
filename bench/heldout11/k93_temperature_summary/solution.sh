#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > temps.py <<'PY'
import sys


def main(path):
    cities = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            city, _date, value = line.split()
            cities.setdefault(city, []).append(float(value))
    if not cities:
        print("no readings")
        return
    for city in sorted(cities):
        values = cities[city]
        mean = sum(values) / len(values)
        print(f"{city}: min {min(values):.1f}, max {max(values):.1f}, mean {mean:.1f} ({len(values)} readings)")


main(sys.argv[1])
PY
