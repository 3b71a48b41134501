#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import re

DOCS = {
    "def circle_area(radius):": "The area of a circle of the given radius, in the square of the radius's unit.",
    "def ring_area(outer, inner):": "The area between two circles with a common centre (a washer), in square units.",
    "def triangle_area(a, b, c):": "The area of a triangle with sides a, b and c, by Heron's formula.",
    "def paint_tins(area_m2, coats=2, m2_per_tin=12):": "How many whole tins of paint cover area_m2 square metres coats times.",
    "class Box:": "A box with a width, depth and height, all in the same unit.",
    "def volume(self):": "The space inside the box, in cubic units.",
    "def surface(self, lid=True):": "The area of the box's outside, counting the lid only when lid is true.",
}
with open("shapes.py") as f:
    text = f.read()
for line, doc in DOCS.items():
    indent = re.search(r"^( *)" + re.escape(line), text, re.M).group(1) + "    "
    text = text.replace(line, f'{line}\n{indent}"""{doc}"""', 1)
with open("shapes.py", "w") as f:
    f.write(text)
PY
