#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/\bto_celsius\b/fahrenheit_to_celsius/g' temps.py main.py
