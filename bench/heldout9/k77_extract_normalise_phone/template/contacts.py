"""A small address book: each name with its phone number in the international +44... form."""

BOOK = {}


def add_contact(name, number):
    digits = number.strip()
    for mark in " -()":
        digits = digits.replace(mark, "")
    if digits.startswith("00"):
        digits = "+" + digits[2:]
    elif digits.startswith("0"):
        digits = "+44" + digits[1:]
    if not digits.lstrip("+").isdigit():
        raise ValueError(f"not a phone number: {number!r}")
    BOOK[name] = digits
    return digits


def find_contact(number):
    digits = number.strip()
    for mark in " -()":
        digits = digits.replace(mark, "")
    if digits.startswith("00"):
        digits = "+" + digits[2:]
    elif digits.startswith("0"):
        digits = "+44" + digits[1:]
    if not digits.lstrip("+").isdigit():
        raise ValueError(f"not a phone number: {number!r}")
    for name, stored in BOOK.items():
        if stored == digits:
            return name
    return None


if __name__ == "__main__":
    add_contact("Ada", "020 7946 0018")
    add_contact("Bo", "(0161) 496-0752")
    add_contact("Cy", "0033 1 23 45 67 89")
    for name, number in sorted(BOOK.items()):
        print(f"{name}: {number}")
    print("who has 02079460018?", find_contact("02079460018"))
    print("who has +44 161 496 0752?", find_contact("+44 161 496 0752"))
    print("who has 0800 123?", find_contact("0800 123"))
