#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^## \[Unreleased\]$/## [Unreleased]\n\n## [1.4.0] - 2026-11-20/; s/^- A dark theme\.$/- A dark theme.\n- Sort the list by aisle./' CHANGELOG.md
