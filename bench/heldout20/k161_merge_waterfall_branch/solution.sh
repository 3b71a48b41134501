#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git merge -q waterfall >/dev/null 2>&1 || true
sed -i '/^<<<<<<< /d; /^=======$/d; /^>>>>>>> /d' trails.md
git add trails.md
git commit -q --no-edit
