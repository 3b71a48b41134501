#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^def tip(/def tip_amount(/' tips.py
sed -i 's/import tip, tip_percent/import tip_amount, tip_percent/; s/= tip(total)/= tip_amount(total)/; s/{tip(310, 20)/{tip_amount(310, 20)/' bill.py
