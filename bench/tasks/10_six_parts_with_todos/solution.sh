#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
for i in 1 2 3 4 5 6; do echo $i > part$i.txt; done
