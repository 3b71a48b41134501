#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/\bqty\b/quantity/g' inventory.py stockreport.py test_inventory.py
