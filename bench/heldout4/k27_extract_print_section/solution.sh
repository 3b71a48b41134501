#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > report.py <<'PY'
"""Print the stock report: python3 report.py"""

FRUIT = [("apples", 12, 0.5), ("pears", 4, 0.75), ("plums", 30, 0.2)]
VEGETABLES = [("carrots", 25, 0.1), ("leeks", 6, 0.9)]


def print_section(title, items):
    print(f"== {title} ({len(items)} kinds) ==")
    total = 0.0
    for name, count, price in items:
        value = count * price
        total += value
        print(f"  {name:<10}{count:>4} x {price:.2f} = {value:6.2f}")
    print(f"  total: {total:.2f}")


def main():
    print_section("Fruit", FRUIT)
    print_section("Vegetables", VEGETABLES)


if __name__ == "__main__":
    main()
PY
