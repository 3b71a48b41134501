"""Small helpers for working with the calendar."""

DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap(year):
    """Whether `year` has a 29 February in the Gregorian calendar."""
    return year % 4 == 0 and year % 100 != 0


def days_in_month(year, month):
    """How many days month `month` (1 to 12) of `year` has."""
    if month == 2 and is_leap(year):
        return 29
    return DAYS[month - 1]


def days_in_year(year):
    return sum(days_in_month(year, month) for month in range(1, 13))
