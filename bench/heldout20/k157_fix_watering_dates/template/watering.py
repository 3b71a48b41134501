"""When to water the house plants next."""

DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def next_watering(last, every):
    """The date (YYYY-MM-DD) `every` days after `last` (YYYY-MM-DD)."""
    year, month, day = (int(part) for part in last.split("-"))
    day += every
    if day > DAYS_IN_MONTH[month - 1]:
        day -= DAYS_IN_MONTH[month - 1]
        month += 1
    return f"{year}-{month:02d}-{day:02d}"


def schedule(plants):
    """Lines like 'fern: 2024-05-03' for (name, last watered, every n days), soonest first."""
    due = [(next_watering(last, every), name) for name, last, every in plants]
    return [f"{name}: {date}" for date, name in sorted(due)]
