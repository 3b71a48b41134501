#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/instalation/installation/g' -e 's/Instalation/Installation/g' README.md
git add README.md
git commit -qm 'Fix spelling in README'
