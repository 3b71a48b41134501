#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/\bget_fee\b/parking_fee/g' parking.py ticket.py
