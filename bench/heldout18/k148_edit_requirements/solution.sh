#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^django==.*/django==5.0.6/; s/^pillow==.*/pillow==10.3.0/; s/^six==.*/requests==2.32.3/' requirements.txt
