#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf 'def double(x):\n    return x * 2\n' > utils.py
