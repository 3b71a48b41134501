"""Helpers for the events page: text and dates."""

import datetime

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def slugify(title):
    """'Summer Fair 2026!' -> 'summer-fair-2026'."""
    words = "".join(c if c.isalnum() else " " for c in title.lower()).split()
    return "-".join(words)


def parse_date(text):
    """'2026-07-04' or '4/7/2026' (day/month/year) -> a datetime.date."""
    text = text.strip()
    if "/" in text:
        day, month, year = (int(part) for part in text.split("/"))
        return datetime.date(year, month, day)
    return datetime.date.fromisoformat(text)


def format_date(date):
    """A datetime.date -> 'Sat 4 Jul 2026'."""
    return f"{date.strftime('%a')} {date.day} {MONTHS[date.month - 1]} {date.year}"


def truncate(text, width):
    """text cut to width characters, ending in ... when it was longer."""
    return text if len(text) <= width else text[: width - 3] + "..."
