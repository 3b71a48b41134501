"""Check ISBN-10 numbers from the library's order list."""


def clean(text):
    """Drop the dashes and spaces people type between the groups."""
    return text.replace("-", "").replace(" ", "").upper()


def check_digit(first_nine):
    """The tenth character for nine digits: 0-9, or X for ten."""
    total = sum(int(d) * weight for d, weight in zip(first_nine, range(10, 1, -1)))
    value = (11 - total % 11) % 11
    return "X" if value == 10 else str(value)


def is_valid(text):
    number = clean(text)
    if len(number) != 10 or not number[:9].isdigit():
        return False
    return number[9] == check_digit(number[1:])


def bad_numbers(lines):
    """The lines of an order list whose ISBN is not valid, in their order."""
    return [line for line in lines if line.strip() and not is_valid(line)]
