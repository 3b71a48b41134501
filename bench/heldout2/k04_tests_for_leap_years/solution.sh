#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > test_leap.py <<'PY'
from leap import is_leap_year


def test_every_fourth_year():
    assert is_leap_year(2024)
    assert not is_leap_year(2023)


def test_centuries():
    assert not is_leap_year(1900)
    assert is_leap_year(2000)
PY
