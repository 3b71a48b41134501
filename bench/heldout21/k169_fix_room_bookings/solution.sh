#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/return a\[0\] <= b\[0\] < a\[1\] or a\[0\] < b\[1\] <= a\[1\]/return a[0] < b[1] and b[0] < a[1]/; s/sorted(plan, key=lambda b: b\[2\])/sorted(plan)/' bookings.py
