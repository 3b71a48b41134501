from convert import celsius_to_fahrenheit, fahrenheit_to_celsius


def test_freezing_point():
    assert celsius_to_fahrenheit(0) == 32


def test_boiling_point_back():
    assert fahrenheit_to_celsius(212) == 100


def test_round_trip():
    assert abs(fahrenheit_to_celsius(celsius_to_fahrenheit(37)) - 37) < 1e-9
