#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git checkout -q main
git cherry-pick experiments~1
