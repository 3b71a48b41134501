"""Print the readings of the day, warmest first."""

from sensors import TempReading, parse

LINES = ["kitchen = 21.5", "cellar = 12", "attic = 26.25"]


def warmest_first(readings):
    return sorted(readings, key=lambda r: r.celsius, reverse=True)


def main():
    readings = [parse(line) for line in LINES]
    readings.append(TempReading("garden", 8.0))
    for reading in warmest_first(readings):
        print(f"{reading.room:<8} {reading.celsius:5.1f} C {reading.fahrenheit():5.1f} F")


if __name__ == "__main__":
    main()
