#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/(len(values) + 1)/len(values)/' calc.py
