#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git add notes.txt && git -c user.name=t -c user.email=t@t commit -qm 'Add notes'
