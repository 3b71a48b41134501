"""Parse durations like '1h30m', '45s' or '2h' into a number of seconds."""

import re

UNITS = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    total = 0
    for number, unit in re.findall(r"(\d+)([hms])", text):
        total = int(number) * UNITS[unit]
    return total
