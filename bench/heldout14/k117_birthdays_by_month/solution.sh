#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > birthdays.py <<'PY'
import calendar
import csv
import sys

months = {}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        _, month, day = (int(part) for part in row["born"].split("-"))
        months.setdefault(month, []).append((day, row["name"]))
for month in sorted(months):
    people = ", ".join(f"{name} ({day})" for day, name in sorted(months[month]))
    print(f"{calendar.month_name[month]}: {people}")
PY
