#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf 'total: 1000\naverage: 250.00\n' > summary.txt
