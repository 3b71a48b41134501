#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
mkdir -p archive && mv notes.txt archive/
