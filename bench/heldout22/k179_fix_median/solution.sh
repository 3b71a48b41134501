#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/return (ordered\[middle\] + ordered\[middle + 1\]) \/ 2/return (ordered[middle - 1] + ordered[middle]) \/ 2/' stats.py
