#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's|return max(1, total // size)|return max(1, (total + size - 1) // size)|' paging.py
