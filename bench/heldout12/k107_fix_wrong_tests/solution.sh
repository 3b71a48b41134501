#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/assert bulk_discount(50) == 10/assert bulk_discount(50) == 20/; s/assert line_total(99, 16) == 1426/assert line_total(99, 16) == 1425/' test_discount.py
