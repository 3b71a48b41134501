import pytest

from checkup import line
from health import calc_bmi, category


def test_calc_bmi():
    assert calc_bmi(70.0, 1.75) == 22.9
    assert calc_bmi(54.0, 1.68) == 19.1


def test_calc_bmi_refuses_zero_height():
    with pytest.raises(ValueError):
        calc_bmi(70.0, 0)


def test_category():
    assert category(18.4) == "underweight"
    assert category(25.0) == "overweight"


def test_line():
    assert line("Omar", 92.5, 1.80) == "Omar: 28.5 (overweight)"
