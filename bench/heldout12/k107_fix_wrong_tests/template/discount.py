"""Prices at the farm shop's till, in cents."""


def bulk_discount(quantity):
    """The discount in percent for `quantity` of one item: 10 from 10 items on, 20 from 50 items on."""
    if quantity >= 50:
        return 20
    if quantity >= 10:
        return 10
    return 0


def line_total(unit_cents, quantity):
    """What `quantity` items at `unit_cents` each cost after the bulk discount, rounded down to a whole cent."""
    gross = unit_cents * quantity
    return gross * (100 - bulk_discount(quantity)) // 100
