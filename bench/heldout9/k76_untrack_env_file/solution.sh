#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git rm -q --cached .env
printf '.env\n' >> .gitignore
git add .gitignore
git commit -qm 'Stop tracking .env'
