#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import re
src = open("greet.py").read()
src = src.replace('    parser.add_argument("name")\n', '    parser.add_argument("name")\n    parser.add_argument("--shout", action="store_true")\n')
src = src.replace('    print(greeting(args.name))', '    text = greeting(args.name)\n    print(text.upper() if args.shout else text)')
open("greet.py", "w").write(src)
PY
cat >> test_greet.py <<'PY'


def test_shout():
    import subprocess, sys
    out = subprocess.run([sys.executable, "greet.py", "--shout", "bob"], capture_output=True, text=True).stdout
    assert out.strip() == "HELLO, BOB!"
PY
