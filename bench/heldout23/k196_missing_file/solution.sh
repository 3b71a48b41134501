#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
from pathlib import Path
p = Path("count.py")
t = p.read_text()
t = t.replace("    with open(name) as f:\n        text = f.read()\n", "    try:\n        with open(name) as f:\n            text = f.read()\n    except FileNotFoundError:\n        print(f\"error: no such file: {name}\")\n        sys.exit(1)\n")
p.write_text(t)
PY
