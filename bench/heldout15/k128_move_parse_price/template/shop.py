"""The shop's price list: python3 shop.py shows it."""


def parse_price(text):
    """Cents from a price as people write it: "1.20", "£1.20", "2", "0.5" or "95p"."""
    text = text.strip().replace("£", "")
    if text.endswith("p"):
        return int(text[:-1])
    pounds, _, pence = text.partition(".")
    return int(pounds or 0) * 100 + int((pence + "00")[:2])


PRICES = {name: parse_price(text) for name, text in {"apples": "£1.20", "pears": "95p", "plums": "2.5"}.items()}


def show(prices):
    for name, cents in sorted(prices.items()):
        print(f"{name}: £{cents // 100}.{cents % 100:02d}")


if __name__ == "__main__":
    show(PRICES)
