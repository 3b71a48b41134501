#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git add app.py
git commit -qm 'Fix greeting typo'
