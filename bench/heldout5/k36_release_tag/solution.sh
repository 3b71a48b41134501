#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
echo 2.1.0 > VERSION
git commit -qam 'Release 2.1.0'
git tag v2.1.0
