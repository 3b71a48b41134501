"""The pool's till: python3 till.py DAY AGE [AGE ...] prints each ticket and the total."""

import sys

from tickets import weekday_price, weekend_price

WEEKEND = ("sat", "sun")


def basket(day, ages):
    """The price of a ticket for each age, on `day` (Monday, tue, SUN...)."""
    if day.lower()[:3] in WEEKEND:
        return [weekend_price(age) for age in ages]
    return [weekday_price(age) for age in ages]


def main(args):
    day, ages = args[0], [int(age) for age in args[1:]]
    prices = basket(day, ages)
    for age, price in zip(ages, prices):
        print(f"age {age}: {price:.2f}")
    print(f"total: {sum(prices):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
