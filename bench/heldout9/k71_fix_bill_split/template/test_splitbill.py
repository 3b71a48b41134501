import pytest

from splitbill import money, shares, split, to_cents


def test_to_cents():
    assert to_cents("12.5") == 1250
    assert to_cents("7") == 700
    assert to_cents("0.05") == 5


def test_money():
    assert money(305) == "3.05"


def test_an_even_bill():
    assert split(900, 3) == [300, 300, 300]


def test_the_first_pay_the_leftover_cents():
    assert split(1000, 3) == [334, 333, 333]
    assert split(1001, 4) == [251, 250, 250, 250]


def test_the_shares_add_up():
    assert sum(split(2599, 7)) == 2599


def test_shares_names_each_person():
    assert shares("10.00", ["ana", "ben", "cy"]) == ["ana owes 3.34", "ben owes 3.33", "cy owes 3.33"]


def test_nobody_to_pay():
    with pytest.raises(ValueError):
        split(500, 0)
