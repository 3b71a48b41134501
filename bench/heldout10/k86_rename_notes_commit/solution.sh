#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git mv notes.txt NOTES.md
sed -i 's/SOURCE = "notes.txt"/SOURCE = "NOTES.md"/' build.py
git commit -qam 'Rename notes to NOTES.md'
