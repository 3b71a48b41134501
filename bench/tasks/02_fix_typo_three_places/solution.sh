#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/recieve/receive/g' mail.py README.md docs/usage.md
