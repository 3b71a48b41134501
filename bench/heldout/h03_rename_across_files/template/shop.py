from pricing import calc_total


def receipt(prices):
    return f"Total: {calc_total(prices)}"


if __name__ == "__main__":
    print(receipt([10, 5]))
