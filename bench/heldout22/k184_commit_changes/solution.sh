#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git add notes.py todo.md
git commit -qm "Sort notes by date and add a to-do list"
