#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '\n\ndef add(a, b):\n    """Return a plus b."""\n    return a + b\n' >> calc/ops.py
