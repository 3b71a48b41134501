#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("shop.py").read()
start = text.index("class Money")
end = text.index("CART = ")
open("money.py", "w").write(text[start:end].rstrip() + "\n")
open("shop.py", "w").write("from money import Money\n\n\n" + text[:start] + text[end:])
PY
