#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git checkout -- settings.py
