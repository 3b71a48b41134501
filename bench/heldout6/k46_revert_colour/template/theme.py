"""The colours the app draws with."""

DEFAULT_COLOUR = "blue"
ACCENT_COLOUR = "orange"


def describe():
    return f"default {DEFAULT_COLOUR}, accent {ACCENT_COLOUR}"


if __name__ == "__main__":
    print(describe())
