#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/calc_bmi/body_mass_index/g' health.py checkup.py test_health.py
