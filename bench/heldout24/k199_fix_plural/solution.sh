#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/    if count > 1:/    if count != 1:/' labels.py
