#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > talk_time.py <<'PY'
import re
import sys


def clock(seconds):
    return f"{seconds // 60}:{seconds % 60:02d}"


lines = []
with open(sys.argv[1]) as f:
    for line in f:
        match = re.match(r"\[(\d+):(\d\d):(\d\d)\] (.*)", line.strip())
        if match:
            h, m, s, rest = match.groups()
            lines.append((int(h) * 3600 + int(m) * 60 + int(s), rest))
talked = {}
for (start, rest), (end, _) in zip(lines, lines[1:]):
    name = rest.split(":", 1)[0]
    talked[name] = talked.get(name, 0) + end - start
for name in sorted(talked, key=lambda n: (-talked[n], n)):
    print(name, clock(talked[name]))
print("total", clock(lines[-1][0] - lines[0][0]))
PY
