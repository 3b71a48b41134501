"""Small text helpers."""


def title_case(text):
    return " ".join(word.capitalize() for word in text.split())


def initials(name):
    return "".join(part[0].upper() for part in name.split())
