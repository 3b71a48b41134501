#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/    if len(text) < width:/    if len(text) <= width:/' shorten.py
sed -i 's/    return text\[:width\] + "..."/    return text[:width - 3] + "..."/' shorten.py
