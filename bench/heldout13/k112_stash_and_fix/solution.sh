#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git stash -q
sed -i 's|    return km \* KM_PER_MILE|    return km / KM_PER_MILE|' units.py
git commit -qam 'Fix km to miles'
git stash pop -q
