class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def times(self, count):
        return Money(self.cents * count)

    def __str__(self):
        return f"£{self.cents // 100}.{self.cents % 100:02d}"


CART = [("scarf", Money(1250), 2), ("gloves", Money(899), 1), ("hat", Money(1505), 1)]


def main():
    total = Money(0)
    for name, price, count in CART:
        line = price.times(count)
        print(f"{count} x {name}: {line}")
        total = total + line
    print(f"total: {total}")


if __name__ == "__main__":
    main()
