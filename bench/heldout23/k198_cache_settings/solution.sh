#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
from pathlib import Path
p = Path("settings.ini")
p.write_text(p.read_text().replace("backend = redis\ntimeout = 300\n", "backend = redis\ntimeout = 600\nmax_size = 100\n"))
PY
