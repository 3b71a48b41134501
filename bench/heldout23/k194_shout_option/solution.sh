#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
from pathlib import Path
p = Path("greet.py")
t = p.read_text()
t = t.replace('    args = parser.parse_args()', '    parser.add_argument("--shout", action="store_true")\n    args = parser.parse_args()')
t = t.replace('        print(f"Hello, {args.name}! Nice to see you.")', '        line = f"Hello, {args.name}! Nice to see you."\n        print(line.upper() if args.shout else line)')
p.write_text(t)
PY
