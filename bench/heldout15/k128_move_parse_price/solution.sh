#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("shop.py") as f:
    text = f.read()
start, end = text.index("def parse_price"), text.index("PRICES = ")
with open("prices.py", "w") as f:
    f.write('"""Reading prices."""\n\n\n' + text[start:end].rstrip("\n") + "\n")
text = text[:start] + text[end:]
text = text.replace('shows it."""\n\n\n', 'shows it."""\n\nfrom prices import parse_price\n\n')
with open("shop.py", "w") as f:
    f.write(text)
with open("importer.py") as f:
    text = f.read()
with open("importer.py", "w") as f:
    f.write(text.replace("from shop import PRICES, parse_price, show\n", "from prices import parse_price\nfrom shop import PRICES, show\n"))
PY
