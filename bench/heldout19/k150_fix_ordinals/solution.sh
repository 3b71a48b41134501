#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("ordinals.py").read()
text = text.replace(
    '''    return f"{n}{SUFFIXES.get(n % 10, 'th')}"''',
    '''    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{SUFFIXES.get(n % 10, 'th')}"''',
)
open("ordinals.py", "w").write(text)
PY
