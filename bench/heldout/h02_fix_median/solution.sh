#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
src = open("stats.py").read()
src = src.replace("    return ordered[middle]\n", "    if len(ordered) % 2:\n        return ordered[middle]\n    return (ordered[middle - 1] + ordered[middle]) / 2\n")
open("stats.py", "w").write(src)
PY
