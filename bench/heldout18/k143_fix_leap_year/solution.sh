#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/    return year % 4 == 0 and year % 100 != 0/    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)/' calendar_tools.py
