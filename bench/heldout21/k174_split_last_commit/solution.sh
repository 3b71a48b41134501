#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git reset -q HEAD^
git add rental.py
git commit -qm 'Charge late fees per started hour'
git add README.md
git commit -qm 'Fix typos in the README'
