#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '# Copyright Hearth Bench\ndef add(a, b):\n    return a + b\n' > util.py
