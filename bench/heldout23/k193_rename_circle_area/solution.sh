#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/area_of_circle/circle_area/g' geometry.py report.py
