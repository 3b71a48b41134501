#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/NOTIFY_KEY/PUSH_API_KEY/g' notifier.py README.md
