def compute_total(prices):
    return sum(prices)
