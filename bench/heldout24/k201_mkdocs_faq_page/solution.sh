#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^  - Usage: usage.md$/  - Usage: usage.md\n  - FAQ: faq.md/' mkdocs.yml
