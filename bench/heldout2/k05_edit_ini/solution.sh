#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/^port = 8000$/port = 9090/' -e 's/^debug = true$/debug = false/' settings.ini
printf '\n[cache]\nttl = 300\n' >> settings.ini
