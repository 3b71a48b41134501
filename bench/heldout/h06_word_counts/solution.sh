#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > counts.py <<'PY'
import json
from collections import Counter

words = open("text.txt").read().lower().split()
json.dump(dict(Counter(words)), open("counts.json", "w"))
PY
python3 counts.py
