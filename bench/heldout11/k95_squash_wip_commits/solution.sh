#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git reset -q --soft HEAD~2
git commit -qm 'Add search box'
