import math


def circle_area(radius):
    if radius < 0:
        raise ValueError("radius must not be negative")
    return math.pi * radius**2


def ring_area(outer, inner):
    if inner > outer:
        raise ValueError("inner radius is larger than the outer one")
    return circle_area(outer) - circle_area(inner)


def triangle_area(a, b, c):
    s = (a + b + c) / 2
    return math.sqrt(s * (s - a) * (s - b) * (s - c))


def paint_tins(area_m2, coats=2, m2_per_tin=12):
    return math.ceil(area_m2 * coats / m2_per_tin)


class Box:
    def __init__(self, width, depth, height):
        self.width, self.depth, self.height = width, depth, height

    def volume(self):
        return self.width * self.depth * self.height

    def surface(self, lid=True):
        base = self.width * self.depth
        sides = 2 * self.height * (self.width + self.depth)
        return sides + base * (2 if lid else 1)


if __name__ == "__main__":
    print(f"{circle_area(1.5):.2f} {ring_area(3, 2):.2f} {triangle_area(3, 4, 5):.1f}")
    print(paint_tins(40), Box(2, 3, 4).volume(), Box(2, 3, 4).surface(lid=False))
