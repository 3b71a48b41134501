#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > dupes.py <<'PY'
import hashlib
import os
import sys

top = sys.argv[1]
groups = {}
for folder, subfolders, files in os.walk(top):
    subfolders[:] = [name for name in subfolders if not name.startswith(".")]
    for name in files:
        if name.startswith("."):
            continue
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            data = f.read()
        if data:
            groups.setdefault(hashlib.sha256(data).hexdigest(), []).append(os.path.relpath(path, top))
found = sorted(sorted(paths) for paths in groups.values() if len(paths) > 1)
for paths in found:
    print(", ".join(paths))
if not found:
    print("no duplicates")
PY
