"""Money amounts are kept as whole cents; these turn them into text and back."""


def fmt_money(cents):
    """The amount in euros with two decimals, and a minus sign when it is negative."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def parse_money(text):
    """An amount like '12.5' or '3.99' or '7' in cents."""
    whole, _, frac = text.strip().partition(".")
    return int(whole or "0") * 100 + int((frac + "00")[:2])
