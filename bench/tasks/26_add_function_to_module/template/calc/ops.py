"""Arithmetic operations used by the report generator."""


def sub(a, b):
    """Return a minus b."""
    return a - b


def mul(a, b):
    """Return a times b."""
    return a * b
