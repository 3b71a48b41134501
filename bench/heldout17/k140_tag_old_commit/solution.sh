#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git tag -a v0.2.0 -m 'Second release' HEAD~1
