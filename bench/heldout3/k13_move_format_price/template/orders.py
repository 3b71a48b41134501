"""Orders: a list of (name, quantity, unit price in cents) lines."""


def format_price(cents):
    return f"${cents // 100}.{cents % 100:02d}"


def order_total(lines):
    return sum(qty * cents for _, qty, cents in lines)


def receipt(lines):
    rows = [f"{name} x{qty}: {format_price(qty * cents)}" for name, qty, cents in lines]
    rows.append(f"total: {format_price(order_total(lines))}")
    return "\n".join(rows)
