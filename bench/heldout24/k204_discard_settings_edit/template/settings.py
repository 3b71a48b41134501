"""Settings of the weather station's status line."""

STATION_NAME = "Allotment 14"
UNITS = "metric"
# How often the readings are fetched again.
REFRESH_SECONDS = 300
