#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > grades.py <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    students = json.load(f)
averages = {}
for student in sorted(students, key=lambda s: s["name"]):
    scores = student["scores"]
    if scores:
        averages[student["name"]] = sum(scores) / len(scores)
        print(f"{student['name']}: {averages[student['name']]:.1f}")
    else:
        print(f"{student['name']}: no scores")
print("best:", max(averages, key=averages.get))
PY
