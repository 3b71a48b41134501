#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat >> money.py <<'PY'


def format_price(cents):
    return f"${cents // 100}.{cents % 100:02d}"
PY
cat > orders.py <<'PY'
"""Orders: a list of (name, quantity, unit price in cents) lines."""

from money import format_price


def order_total(lines):
    return sum(qty * cents for _, qty, cents in lines)


def receipt(lines):
    rows = [f"{name} x{qty}: {format_price(qty * cents)}" for name, qty, cents in lines]
    rows.append(f"total: {format_price(order_total(lines))}")
    return "\n".join(rows)
PY
cat > main.py <<'PY'
from money import format_price, to_cents
from orders import receipt

LINES = [("tea", 2, to_cents("3.50")), ("cake", 1, to_cents("4.25"))]

print(receipt(LINES))
print("tea alone:", format_price(to_cents("3.50")))
PY
