#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/water_needed(/weekly_litres(/g' garden.py planner.py report.py test_garden.py
