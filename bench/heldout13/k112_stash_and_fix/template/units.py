"""Convert distances: python3 units.py 10 km, or python3 units.py 6.2 miles."""

import sys

KM_PER_MILE = 1.609344


def km_to_miles(km):
    """How many miles `km` kilometres are."""
    return km * KM_PER_MILE


def miles_to_km(miles):
    """How many kilometres `miles` miles are."""
    return miles * KM_PER_MILE


def main(args):
    amount, unit = float(args[0]), args[1]
    if unit == "km":
        print(f"{amount:g} km = {km_to_miles(amount):.2f} miles")
    elif unit == "miles":
        print(f"{amount:g} miles = {miles_to_km(amount):.2f} km")
    else:
        sys.exit(f"unknown unit {unit}")


if __name__ == "__main__":
    main(sys.argv[1:])
