#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import csv

FEES = {"standard": 48, "student": 24, "honorary": 0}
with open("members.csv", newline="") as f:
    reader = csv.DictReader(f)
    fields, rows = reader.fieldnames, list(reader)
for row in rows:
    fee = FEES[row["membership"]]
    if fee and row["joined"] < "2020":
        fee -= 5
    row["fee"] = str(fee)
    row["email"] = row["email"].lower()
with open("members.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
PY
