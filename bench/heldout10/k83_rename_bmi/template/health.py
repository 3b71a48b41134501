"""Body mass index and the category it falls in."""


def calc_bmi(weight_kg, height_m):
    """Weight divided by the square of the height, to one decimal."""
    if height_m <= 0:
        raise ValueError("height must be above zero")
    return round(weight_kg / height_m**2, 1)


def category(bmi):
    if bmi < 18.5:
        return "underweight"
    if bmi < 25:
        return "healthy"
    if bmi < 30:
        return "overweight"
    return "obese"
