#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '\n\ndef is_even(n):\n    return n %% 2 == 0\n' >> mathx.py
