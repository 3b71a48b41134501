#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's|    average = total / len(orders)|    average = total / len(orders) if orders else 0.0|' report.py
