#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("tally.py").read()
text = text.replace(
    "def load():\n    with open(FILE) as f:\n        return json.load(f)\n",
    "def load():\n"
    "    try:\n"
    "        with open(FILE) as f:\n"
    "            return json.load(f)\n"
    "    except FileNotFoundError:\n"
    "        return {}\n",
)
text = text.replace(
    '    elif args[0] == "show":\n',
    '    elif args[0] == "show":\n'
    "        if not counts:\n"
    '            print("No entries yet.")\n',
)
assert text.count("No entries yet.") == 1 and "return {}" in text
open("tally.py", "w").write(text)
PY
