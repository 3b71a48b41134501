#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("hours.py") as f:
    text = f.read()
text = text.replace(
    "        if start <= now < end:\n",
    "        if start <= now < end or (end <= start and (now >= start or now < end)):\n",
)
text = text.replace(
    "    return sum(end - start for start, end in map(span, ranges))\n",
    "    return sum((end - start) % (24 * 60) for start, end in map(span, ranges))\n",
)
with open("hours.py", "w") as f:
    f.write(text)
PY
