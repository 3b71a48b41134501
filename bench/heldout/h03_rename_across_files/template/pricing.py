def calc_total(prices, tax=0.2):
    """The sum of the prices with tax added."""
    return round(sum(prices) * (1 + tax), 2)
