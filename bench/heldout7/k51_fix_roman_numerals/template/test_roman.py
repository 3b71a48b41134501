import pytest

from roman import from_roman, to_roman


def test_to_roman():
    assert to_roman(1994) == "MCMXCIV"
    assert to_roman(8) == "VIII"


def test_out_of_range():
    with pytest.raises(ValueError):
        to_roman(0)


def test_from_roman_subtracts():
    assert from_roman("XLIV") == 44


def test_from_roman_repeated_letters():
    assert from_roman("III") == 3
    assert from_roman("mmxx") == 2020


def test_round_trip():
    for number in (1, 4, 9, 14, 40, 99, 400, 1666, 3999):
        assert from_roman(to_roman(number)) == number
