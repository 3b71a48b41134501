#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/range(int(start), int(end))/range(int(start), int(end) + 1)/' ranges.py
