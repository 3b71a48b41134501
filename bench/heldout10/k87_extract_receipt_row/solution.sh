#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > till.py <<'PY'
"""Receipts and refund slips for the café till; amounts are in cents."""

WIDTH = 14


def row(name, cents):
    label = name if len(name) <= WIDTH else name[: WIDTH - 1] + "~"
    amount = f"{cents // 100}.{cents % 100:02d}"
    return label.ljust(WIDTH) + amount.rjust(8)


def receipt(items):
    lines = ["RECEIPT"]
    for name, cents in items:
        lines.append(row(name, cents))
    total = sum(cents for _, cents in items)
    lines.append(f"total: {total // 100}.{total % 100:02d}")
    return lines


def refund(items, reason):
    lines = [f"REFUND ({reason})"]
    for name, cents in items:
        lines.append(row(name, cents))
    lines.append(f"refunded: {len(items)} item(s)")
    return lines


if __name__ == "__main__":
    order = [("Flat white", 320), ("Cinnamon bun with icing", 395), ("Water", 0)]
    print("\n".join(receipt(order)))
    print("\n".join(refund(order[1:2], "stale")))
PY
