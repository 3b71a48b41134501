"""Convert whole numbers to Roman numerals and back."""

NUMERALS = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]
VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(number):
    if not 0 < number < 4000:
        raise ValueError(f"{number} is out of range (1 to 3999)")
    parts = []
    for value, letters in NUMERALS:
        while number >= value:
            parts.append(letters)
            number -= value
    return "".join(parts)


def from_roman(text):
    total = 0
    for i, letter in enumerate(text.upper()):
        value = VALUES[letter]
        # A smaller numeral before a larger one is subtracted (IV is 4).
        if i + 1 < len(text) and VALUES[text[i + 1].upper()] >= value:
            total -= value
        else:
            total += value
    return total
