#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/    return tuple(text.split("."))/    return tuple(int(part) for part in text.split("."))/' versions.py
