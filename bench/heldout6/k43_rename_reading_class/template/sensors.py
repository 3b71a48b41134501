"""Readings from the temperature sensors."""


class TempReading:
    def __init__(self, room, celsius):
        self.room = room
        self.celsius = celsius

    def fahrenheit(self):
        return self.celsius * 9 / 5 + 32

    def __repr__(self):
        return f"TempReading({self.room!r}, {self.celsius})"


def parse(line):
    room, value = line.split("=")
    return TempReading(room.strip(), float(value))
