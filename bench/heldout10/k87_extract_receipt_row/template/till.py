"""Receipts and refund slips for the café till; amounts are in cents."""

WIDTH = 14


def receipt(items):
    lines = ["RECEIPT"]
    for name, cents in items:
        label = name if len(name) <= WIDTH else name[: WIDTH - 1] + "~"
        amount = f"{cents // 100}.{cents % 100:02d}"
        lines.append(label.ljust(WIDTH) + amount.rjust(8))
    total = sum(cents for _, cents in items)
    lines.append(f"total: {total // 100}.{total % 100:02d}")
    return lines


def refund(items, reason):
    lines = [f"REFUND ({reason})"]
    for name, cents in items:
        label = name if len(name) <= WIDTH else name[: WIDTH - 1] + "~"
        amount = f"{cents // 100}.{cents % 100:02d}"
        lines.append(label.ljust(WIDTH) + amount.rjust(8))
    lines.append(f"refunded: {len(items)} item(s)")
    return lines


if __name__ == "__main__":
    order = [("Flat white", 320), ("Cinnamon bun with icing", 395), ("Water", 0)]
    print("\n".join(receipt(order)))
    print("\n".join(refund(order[1:2], "stale")))
