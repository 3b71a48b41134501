#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/--out DIR/--dest DIR/; s/"--out",/"--dest",/; s/args\.out,/args.dest,/' publish.py
sed -i 's/--out DIR/--dest DIR/; s/--out site/--dest site/; s/--out build/--dest build/' README.md
