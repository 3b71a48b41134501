#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git checkout -q -b raise-timeout
sed -i 's/^TIMEOUT = 5$/TIMEOUT = 30/' client.py
git commit -qam 'Raise timeout to 30 seconds'
