"""Prints the weather station's status line: python3 app.py"""

import settings


def status_line():
    unit = "C" if settings.UNITS == "metric" else "F"
    minutes = settings.REFRESH_SECONDS // 60
    return f"{settings.STATION_NAME}: temperatures in {unit}, refreshed every {minutes} min"


if __name__ == "__main__":
    print(status_line())
