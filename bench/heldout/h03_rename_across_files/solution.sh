#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/calc_total/compute_total/g' pricing.py shop.py
