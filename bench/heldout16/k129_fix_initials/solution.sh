#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/    parts = name.split(" ")/    parts = name.replace("-", " ").split()/' initials.py
