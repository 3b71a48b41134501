#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/range(0, len(items) - size + 1, size)/range(0, len(items), size)/' batching.py
