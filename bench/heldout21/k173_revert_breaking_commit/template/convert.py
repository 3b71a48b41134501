"""Unit conversions for the weather station's readings."""


def c_to_f(celsius):
    """Degrees Celsius in Fahrenheit."""
    return celsius * 9 / 5 + 32


def kmh_to_knots(kmh):
    """Wind speed in km/h in knots."""
    return kmh / 1.852


def hpa_to_inhg(hpa):
    """Air pressure in hectopascals in inches of mercury."""
    return hpa * 0.02953
