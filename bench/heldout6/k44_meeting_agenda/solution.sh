#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > agenda.py <<'PY'
import json
import sys


def end_time(start, minutes):
    hours, mins = map(int, start.split(":"))
    total = hours * 60 + mins + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def main(path):
    with open(path) as f:
        meetings = json.load(f)
    if not meetings:
        print("no meetings")
        return
    for m in sorted(meetings, key=lambda m: (m["date"], m["start"])):
        print(f"{m['date']} {m['start']}-{end_time(m['start'], m['minutes'])} {m['title']}")
    print(f"total: {sum(m['minutes'] for m in meetings)} minutes")


main(sys.argv[1])
PY
