#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
from pathlib import Path
p = Path("scores.py")
p.write_text(p.read_text().replace("    return sum(scores) / len(scores)", "    if not scores:\n        return 0.0\n    return sum(scores) / len(scores)"))
PY
