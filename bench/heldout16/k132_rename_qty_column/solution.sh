#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i '1s/^item,qty,/item,quantity,/' stock.csv
sed -i "s/\"qty\"/\"quantity\"/g; s/'qty'/'quantity'/g" report.py
