"""Print today's rates for the shop window: python3 report.py"""

from rates import convert, fetch_rate


def main():
    for quote in ("USD", "GBP", "JPY"):
        print(f"1 EUR = {fetch_rate('EUR', quote):.4f} {quote}")
    print(f"1 GBP = {fetch_rate('GBP', 'CHF'):.4f} CHF")
    print(f"250 GBP = {convert(250, 'GBP', 'USD'):.2f} USD")


if __name__ == "__main__":
    main()
