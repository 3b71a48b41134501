#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/VALUES\[text\[i + 1\].upper()\] >= value/VALUES[text[i + 1].upper()] > value/' roman.py
