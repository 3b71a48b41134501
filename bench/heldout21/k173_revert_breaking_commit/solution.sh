#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git revert --no-edit HEAD~2 >/dev/null
