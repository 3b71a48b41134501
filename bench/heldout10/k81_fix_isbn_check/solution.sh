#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/check_digit(number\[1:\])/check_digit(number[:9])/' isbn.py
