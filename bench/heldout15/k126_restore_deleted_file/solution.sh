#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git checkout HEAD~2 -- helpers.py
git commit -qm 'Bring back helpers.py'
