#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/\bfmt_money\b/format_price/g' money.py receipt.py
