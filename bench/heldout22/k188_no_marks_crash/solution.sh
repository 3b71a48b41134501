#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("report.py").read()
old = "        print(f\"{student['name']}: {average(student['marks']):.1f}\")\n"
new = (
    "        if not student[\"marks\"]:\n"
    "            print(f\"{student['name']}: no marks\")\n"
    "            continue\n" + old
)
assert old in text
open("report.py", "w").write(text.replace(old, new))
PY
