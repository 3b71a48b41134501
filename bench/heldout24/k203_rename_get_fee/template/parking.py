"""Parking charges: the first 30 minutes are free, then 1.50 an hour or part of an hour, and
never more than 12.00 for a day."""

FREE_MINUTES = 30
HOURLY_CENTS = 150
DAILY_CAP_CENTS = 1200


def get_fee(minutes):
    """The charge in cents for a stay of `minutes` minutes within one day."""
    if minutes <= FREE_MINUTES:
        return 0
    hours = -(-(minutes - FREE_MINUTES) // 60)
    return min(hours * HOURLY_CENTS, DAILY_CAP_CENTS)


def as_euros(cents):
    """Cents as euros with two decimals: 150 -> "1.50"."""
    return f"{cents // 100}.{cents % 100:02d}"
