#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's|return fahrenheit - 32 \* 5 / 9|return (fahrenheit - 32) * 5 / 9|' convert.py
