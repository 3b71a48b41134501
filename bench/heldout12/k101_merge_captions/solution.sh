#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
git merge -q captions -m 'Merge branch captions' || true
cat > settings.py <<'PY'
"""Settings for the photo gallery page."""

DEFAULTS = {
    "title": "My photos",
    "per_page": 20,
    "theme": "dark",
    "show_captions": True,
}
PY
git add settings.py
git commit -q --no-edit
