#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '__pycache__/\n*.log\n' > .gitignore
git add .gitignore && git -c user.name=t -c user.email=t@t commit -qm 'Add gitignore'
