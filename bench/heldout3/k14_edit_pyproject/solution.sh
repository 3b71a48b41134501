#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tidy-notes"
version = "0.3.0"
description = "Keep plain-text notes tidy"
requires-python = ">=3.10"
dependencies = [
    "click>=8.0",
    "rich>=13",
]

[project.scripts]
tidy-notes = "tidy_notes.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]
TOML
