#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/^envlist = py310, py311, lint$/envlist = py310, py311, py312, lint/' \
  -e 's/--line-length 88 src$/--line-length 100 src/' -e '/^\[testenv:docs\]$/,$d' tox.ini
printf '[testenv:types]\ndeps = mypy\ncommands = mypy src\n' >> tox.ini
