#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/1\.4\.2/1.5.0/' package.json README.md
