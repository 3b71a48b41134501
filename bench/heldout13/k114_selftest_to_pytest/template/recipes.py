"""Scale recipes and convert their weights."""

from fractions import Fraction


def scale(amount, serves, wanted):
    """The amount for `wanted` people in a recipe for `serves`, as a Fraction."""
    return Fraction(amount) * wanted / serves


def to_grams(amount, unit):
    """`amount` in `unit` (g, kg, oz or lb) in grams, rounded to a whole gram."""
    factors = {"g": 1, "kg": 1000, "oz": 28.349523125, "lb": 453.59237}
    if unit not in factors:
        raise ValueError(f"unknown unit: {unit}")
    return round(amount * factors[unit])


def nice_fraction(value):
    """A number written as a cook would write it: nice_fraction(Fraction(7, 4)) == "1 3/4"."""
    value = Fraction(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    if whole == 0:
        return f"{rest}/{value.denominator}"
    return f"{whole} {rest}/{value.denominator}"


def _selftest():
    assert scale(2, 4, 6) == 3
    assert scale(1, 4, 2) == Fraction(1, 2)
    assert scale(Fraction(1, 3), 2, 3) == Fraction(1, 2)
    assert to_grams(250, "g") == 250
    assert to_grams(1.5, "kg") == 1500
    assert to_grams(4, "oz") == 113
    assert to_grams(2, "lb") == 907
    try:
        to_grams(1, "cup")
    except ValueError:
        pass
    else:
        raise AssertionError("to_grams accepts cups")
    assert nice_fraction(Fraction(7, 4)) == "1 3/4"
    assert nice_fraction(Fraction(2, 3)) == "2/3"
    assert nice_fraction(Fraction(6, 2)) == "3"
    assert nice_fraction(0) == "0"
    print("all checks passed")


if __name__ == "__main__":
    _selftest()
