#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > shipping.py <<'PY'
"""What each of today's parcels costs to send; weights in grams, prices in cents."""

PARCELS = [
    ("Ada", 400, False),
    ("Bram", 2000, True),
    ("Chen", 7250, False),
    ("Dina", 12000, True),
]


def price(grams, express):
    if grams <= 500:
        cents = 350
    elif grams <= 5000:
        # 12 cents for each started 100 g over 500 g
        cents = 350 + (grams - 500 + 99) // 100 * 12
    else:
        # 95 cents for each started kilo over 5 kg
        cents = 890 + (grams - 5000 + 999) // 1000 * 95
    if express:
        cents += cents // 2
    return cents


def main():
    total = 0
    for name, grams, express in PARCELS:
        cents = price(grams, express)
        total += cents
        print(f"{name:<6}{grams:>7} g {cents / 100:>7.2f}")
    print(f"total {total / 100:.2f}")


if __name__ == "__main__":
    main()
PY
