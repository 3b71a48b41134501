#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '\n[mypy-invoicing.legacy.*]\nignore_errors = True\n' >> mypy.ini
