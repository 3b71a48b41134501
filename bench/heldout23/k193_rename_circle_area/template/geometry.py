"""Areas of plane shapes."""

import math


def area_of_circle(radius):
    return math.pi * radius**2


def square_area(side):
    return side * side
