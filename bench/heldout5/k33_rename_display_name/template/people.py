"""The people known to the address book."""

PEOPLE = [
    {"first": "ada", "last": "lovelace", "city": "London"},
    {"first": "alan", "last": "turing", "city": "Wilmslow"},
    {"first": "grace", "last": "", "city": "Arlington"},
]


def get_full_name(person):
    """'Ada Lovelace', or just the first name when there is no last name."""
    parts = [person["first"].title(), person["last"].title()]
    return " ".join(part for part in parts if part)
