#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
mv fmt.py formatting.py
sed -i 's/\bfmt\b/formatting/g' invoice.py
