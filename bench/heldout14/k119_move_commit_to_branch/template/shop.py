"""The shop's price list: python3 shop.py"""

PRICES = {"tea": 2.40, "coffee": 2.90, "scone": 3.10, "flapjack": 2.20}


def price_list():
    return [f"{name:<10}{price:>6.2f}" for name, price in sorted(PRICES.items())]


if __name__ == "__main__":
    print("\n".join(price_list()))
