#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
mkdir -p src/app tests && touch src/app/__init__.py && echo "print('ok')" > src/app/main.py
