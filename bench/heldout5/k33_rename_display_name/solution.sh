#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/get_full_name/display_name/g' people.py listing.py test_listing.py
