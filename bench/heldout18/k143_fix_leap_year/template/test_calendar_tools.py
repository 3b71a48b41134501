from calendar_tools import days_in_month, days_in_year, is_leap


def test_ordinary_years():
    assert not is_leap(2023)
    assert is_leap(2024)
    assert days_in_year(2023) == 365


def test_february():
    assert days_in_month(2024, 2) == 29
    assert days_in_month(2025, 2) == 28
    assert days_in_month(2025, 4) == 30


def test_century_years():
    assert not is_leap(2100)
    assert is_leap(2000)
    assert days_in_month(2000, 2) == 29
    assert days_in_year(2000) == 366
