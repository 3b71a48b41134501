#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/share + 1 if i <= extra else share/share + 1 if i < extra else share/' splitbill.py
