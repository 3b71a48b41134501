from tickets import weekday_price, weekend_price
from till import basket


def test_weekday_prices():
    assert [weekday_price(age) for age in (2, 4, 15, 16, 64, 65)] == [0.0, 3.8, 3.8, 6.5, 6.5, 4.2]


def test_weekend_costs_more_except_for_the_little_ones():
    assert weekend_price(3) == 0.0
    assert weekend_price(10) == weekday_price(10) + 1
    assert weekend_price(40) == 7.5
    assert weekend_price(70) == 5.2


def test_basket():
    assert basket("Saturday", [40, 8]) == [weekend_price(40), weekend_price(8)]
    assert basket("tue", [40, 8]) == [6.5, 3.8]
