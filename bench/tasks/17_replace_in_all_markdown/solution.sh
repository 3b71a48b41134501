#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/v1.0/v1.1/g' README.md docs/install.md docs/changes.md
