#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/TempReading/Measurement/g' sensors.py summary.py test_summary.py
