"""Turning numbers into text for the invoice."""


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def percent(rate):
    return f"{rate * 100:g}%"


def padded(label, width=12):
    return label.ljust(width, ".")
