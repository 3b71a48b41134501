"""Formatting for the quiz."""


def question(text, answer):
    return f"{text} ({answer})"


def numbered(lines):
    return [f"{number}. {line}" for number, line in enumerate(lines, 1)]
