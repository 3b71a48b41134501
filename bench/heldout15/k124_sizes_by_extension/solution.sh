#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > extsizes.py <<'PY'
import os
import sys

totals = {}
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        path, size = line.rsplit(None, 1)
        name = os.path.basename(path)
        ext = name.rsplit(".", 1)[1] if "." in name else "(none)"
        count, total = totals.get(ext, (0, 0))
        totals[ext] = (count + 1, total + int(size))
for ext, (count, total) in sorted(totals.items(), key=lambda item: (-item[1][1], item[0])):
    files = "1 file" if count == 1 else f"{count} files"
    print(f"{ext}: {files}, {total} bytes")
PY
