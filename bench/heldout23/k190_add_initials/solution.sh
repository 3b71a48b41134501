#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat >> names.py <<'PY'


def initials(name):
    return "".join(part[0].upper() + "." for part in name.split())
PY
