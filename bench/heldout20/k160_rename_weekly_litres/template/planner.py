"""How many trips with the watering can a week."""

import math


def refills(beds, can_litres=10):
    return math.ceil(sum(bed.water_needed() for bed in beds) / can_litres)


def thirstiest(beds):
    return max(beds, key=lambda bed: bed.water_needed())
