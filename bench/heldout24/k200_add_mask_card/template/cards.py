"""Helpers for the card numbers on the checkout page."""


def digits_only(number):
    """The digits of a card number, without its spaces and dashes."""
    return "".join(char for char in number if char.isdigit())


def luhn_valid(number):
    """Whether the card number passes the Luhn check."""
    total = 0
    for i, char in enumerate(reversed(digits_only(number))):
        n = int(char)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def card_brand(number):
    """"Visa", "Mastercard", "Amex" or "Other", from the first digits."""
    digits = digits_only(number)
    if digits.startswith("4"):
        return "Visa"
    if digits[:2] in {"51", "52", "53", "54", "55"}:
        return "Mastercard"
    if digits[:2] in {"34", "37"}:
        return "Amex"
    return "Other"
