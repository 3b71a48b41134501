#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
mv helpers.py textutils.py
sed 's/helpers/textutils/g' test_helpers.py > test_textutils.py
rm test_helpers.py
sed -i 's/from helpers import/from textutils import/' main.py
