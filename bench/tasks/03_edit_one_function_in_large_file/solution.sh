#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'E'
import re
s=open('funcs.py').read()
s=s.replace('def f_150(x):\n    return x + 150','def f_150(x):\n    return x * 2')
open('funcs.py','w').write(s)
E
