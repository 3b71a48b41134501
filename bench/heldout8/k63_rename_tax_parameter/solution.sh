#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/tax_pct/vat_rate/g' billing.py till.py test_billing.py
