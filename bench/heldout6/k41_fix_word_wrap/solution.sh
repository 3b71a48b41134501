#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/len(current) + 1 + len(word) < width/len(current) + 1 + len(word) <= width/' wrap.py
