#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("recipes.py") as f:
    text = f.read()
with open("recipes.py", "w") as f:
    f.write(text[: text.index("\n\ndef _selftest():")].rstrip("\n") + "\n")
PY
cat > test_recipes.py <<'PY'
from fractions import Fraction

import pytest

from recipes import nice_fraction, scale, to_grams


def test_scale():
    assert scale(2, 4, 6) == 3
    assert scale(1, 4, 2) == Fraction(1, 2)
    assert scale(Fraction(1, 3), 2, 3) == Fraction(1, 2)


def test_to_grams():
    assert to_grams(250, "g") == 250
    assert to_grams(1.5, "kg") == 1500
    assert to_grams(4, "oz") == 113
    assert to_grams(2, "lb") == 907
    with pytest.raises(ValueError):
        to_grams(1, "cup")


def test_nice_fraction():
    assert nice_fraction(Fraction(7, 4)) == "1 3/4"
    assert nice_fraction(Fraction(2, 3)) == "2/3"
    assert nice_fraction(Fraction(6, 2)) == "3"
    assert nice_fraction(0) == "0"
PY
