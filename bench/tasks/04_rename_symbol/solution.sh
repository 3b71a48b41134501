#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/compute_total/sum_prices/g' shop/cart.py shop/__init__.py main.py
