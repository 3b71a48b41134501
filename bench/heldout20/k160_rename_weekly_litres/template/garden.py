"""The raised beds on the allotment."""

LITRES_PER_SQUARE_METRE = {"tomato": 12, "bean": 8, "lettuce": 6, "herb": 3}


class Bed:
    def __init__(self, name, crop, width, length):
        self.name = name
        self.crop = crop
        self.width = width
        self.length = length

    def area(self):
        return self.width * self.length

    def water_needed(self):
        """Litres of water the bed needs a week."""
        return round(self.area() * LITRES_PER_SQUARE_METRE[self.crop], 1)


BEDS = [
    Bed("north", "tomato", 1.2, 3),
    Bed("south", "bean", 1.2, 2.5),
    Bed("patio", "herb", 0.5, 1),
    Bed("shed", "lettuce", 1, 2),
]
