#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/start = number \* size/start = (number - 1) * size/' pages.py
