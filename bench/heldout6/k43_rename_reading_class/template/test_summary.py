from sensors import TempReading, parse
from summary import warmest_first


def test_parse():
    reading = parse(" hall =19.5")
    assert isinstance(reading, TempReading)
    assert (reading.room, reading.celsius) == ("hall", 19.5)


def test_fahrenheit():
    assert TempReading("x", 100).fahrenheit() == 212


def test_warmest_first():
    a, b = TempReading("a", 1), TempReading("b", 2)
    assert warmest_first([a, b]) == [b, a]
