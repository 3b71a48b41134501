"""Prints the areas of a few shapes: python3 report.py"""

from geometry import area_of_circle, square_area

for radius in (1, 2.5):
    print(f"circle r={radius}: {area_of_circle(radius):.2f}")
print(f"square 3: {square_area(3):.2f}")
