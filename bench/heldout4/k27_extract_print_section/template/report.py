"""Print the stock report: python3 report.py"""

FRUIT = [("apples", 12, 0.5), ("pears", 4, 0.75), ("plums", 30, 0.2)]
VEGETABLES = [("carrots", 25, 0.1), ("leeks", 6, 0.9)]


def main():
    print(f"== Fruit ({len(FRUIT)} kinds) ==")
    total = 0.0
    for name, count, price in FRUIT:
        value = count * price
        total += value
        print(f"  {name:<10}{count:>4} x {price:.2f} = {value:6.2f}")
    print(f"  total: {total:.2f}")

    print(f"== Vegetables ({len(VEGETABLES)} kinds) ==")
    total = 0.0
    for name, count, price in VEGETABLES:
        value = count * price
        total += value
        print(f"  {name:<10}{count:>4} x {price:.2f} = {value:6.2f}")
    print(f"  total: {total:.2f}")


if __name__ == "__main__":
    main()
