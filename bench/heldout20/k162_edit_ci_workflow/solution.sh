#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/\["3.8", "3.9", "3.10", "3.11"\]/["3.10", "3.11", "3.12", "3.13"]/; s/checkout@v3/checkout@v4/; s/setup-python@v4/setup-python@v5/; s/run: flake8 \./run: ruff check ./; s/branches: \[main\]/branches: [main, release]/' .github/workflows/tests.yml
sed -i 's/^flake8$/ruff/' requirements.txt
