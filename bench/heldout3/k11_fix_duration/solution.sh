#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/total = int(number)/total += int(number)/' durations.py
