"""Ticket prices at the Riverside swimming pool."""

ADULT, CHILD, SENIOR = 6.50, 3.80, 4.20
WEEKEND_EXTRA = 1.00  # on Saturdays and Sundays, for everyone who pays
FREE_UNDER, CHILD_UNDER, SENIOR_FROM = 4, 16, 65


def weekday_price(age):
    """The price of one ticket from Monday to Friday."""
    if age < FREE_UNDER:
        return 0.0
    if age < CHILD_UNDER:
        return CHILD
    if age >= SENIOR_FROM:
        return SENIOR
    return ADULT


def weekend_price(age):
    """The price of one ticket on Saturday or Sunday."""
    if age < FREE_UNDER:
        return 0.0
    if age < CHILD_UNDER:
        return CHILD + WEEKEND_EXTRA
    if age >= SENIOR_FROM:
        return SENIOR + WEEKEND_EXTRA
    return ADULT + WEEKEND_EXTRA
