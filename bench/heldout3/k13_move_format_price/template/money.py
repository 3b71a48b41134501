"""Money helpers. Amounts are kept as whole cents."""


def to_cents(text):
    whole, _, frac = text.strip().lstrip("$").partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])
