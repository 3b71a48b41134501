"""What a bike rental costs at the harbour kiosk."""

import math

HOURLY = {"city": 4.0, "e-bike": 9.0}
DAILY_CAP = {"city": 20.0, "e-bike": 45.0}
LATE_FEE = 5.0  # for each hour past the time agreed


def cost(bike, hours):
    """The price for `hours` hours (started hours count as whole ones), at most the day's cap."""
    return min(HOURLY[bike] * math.ceil(hours), DAILY_CAP[bike])


def late_fee(agreed_hours, returned_after):
    """The fee for bringing the bike back late."""
    late = returned_after - agreed_hours
    if late <= 0:
        return 0.0
    return LATE_FEE * int(late)
