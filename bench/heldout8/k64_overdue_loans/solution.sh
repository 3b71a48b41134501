#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > overdue.py <<'PY'
import csv
import sys
from datetime import date


def main(path, today):
    late = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            days = (date.fromisoformat(today) - date.fromisoformat(row["due"])).days
            if days > 0:
                late.append((-days, row["title"], row["borrower"]))
    if not late:
        print("nothing overdue")
        return
    for minus, title, borrower in sorted(late):
        print(f"{title} ({borrower}): {-minus} {'day' if minus == -1 else 'days'} late")
    print(f"{len(late)} {'book' if len(late) == 1 else 'books'} overdue")


main(sys.argv[1], sys.argv[2])
PY
