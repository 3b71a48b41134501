#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git branch export
git reset -q --hard HEAD~1
