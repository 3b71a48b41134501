#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '__pycache__/\n*.log\nbuild/*\n!build/README.md\n' > .gitignore
git rm -q --cached app.log
git add .gitignore build/README.md
git commit -qm 'Ignore generated files and logs'
