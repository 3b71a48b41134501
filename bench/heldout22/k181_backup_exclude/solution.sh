#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^compress = true$/compress = true\nexclude = ["*.tmp", "node_modules"]/' backup.toml
