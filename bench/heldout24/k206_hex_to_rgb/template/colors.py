"""Colour helpers for the theme editor. A colour is a (red, green, blue) tuple of 0 to 255."""


def rgb_to_hex(rgb):
    """The colour written "#rrggbb", in lower case: (255, 136, 0) -> "#ff8800"."""
    return "#" + "".join(f"{part:02x}" for part in rgb)


def hex_to_rgb(text):
    """The (red, green, blue) tuple of a colour written "#rrggbb", or the short way "#rgb",
    where each digit stands for itself twice: "#f80" is the same as "#ff8800". The letters may
    be upper or lower case. Anything else (no "#" in front, another number of digits, a
    character that is not a hex digit) raises ValueError.
    """
    raise NotImplementedError


def lighten(rgb, amount):
    """The colour moved `amount` (0 to 1) of the way towards white."""
    return tuple(round(part + (255 - part) * amount) for part in rgb)
