#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("watering.py").read()
start, end = text.index("DAYS_IN_MONTH"), text.index("\n\ndef schedule")
new = '''from datetime import date, timedelta


def next_watering(last, every):
    """The date (YYYY-MM-DD) `every` days after `last` (YYYY-MM-DD)."""
    return (date.fromisoformat(last) + timedelta(days=every)).isoformat()
'''
open("watering.py", "w").write(text[:start] + new + text[end:])
PY
