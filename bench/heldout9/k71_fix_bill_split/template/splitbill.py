"""Split a bill between friends: each owes whole cents, and the shares add up to the bill."""


def to_cents(amount):
    """Turn "12.5" or "12.50" into 1250."""
    euros, _, cents = amount.strip().partition(".")
    return int(euros) * 100 + int((cents + "00")[:2])


def split(total_cents, people):
    """Shares as equal as they can be; the first ones pay the cents left over."""
    if people < 1:
        raise ValueError("need at least one person")
    share, extra = divmod(total_cents, people)
    return [share + 1 if i <= extra else share for i in range(people)]


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def shares(amount, names):
    """Lines like "ana owes 3.34", one for each name."""
    cents = split(to_cents(amount), len(names))
    return [f"{name} owes {money(c)}" for name, c in zip(names, cents)]
