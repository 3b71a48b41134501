#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > hours.py <<'PY'
import csv
import sys


def main(path):
    hours, dates = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            name = row["name"]
            hours[name] = hours.get(name, 0) + float(row["hours"])
            dates.setdefault(name, set()).add(row["date"])
    if not hours:
        print("no entries")
        return
    for name in sorted(hours, key=lambda n: (-hours[n], n)):
        days = len(dates[name])
        print(f"{name}: {hours[name]:.1f} h on {days} {'day' if days == 1 else 'days'}")
    print(f"total: {sum(hours.values()):.1f} h")


main(sys.argv[1])
PY
