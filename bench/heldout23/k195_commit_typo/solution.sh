#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/recieve/receive/' README.md
git add README.md
git commit -qm "Fix typo in README"
