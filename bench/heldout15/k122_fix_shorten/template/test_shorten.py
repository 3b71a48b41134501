from shorten import shorten


def test_short_text_is_kept():
    assert shorten("Tea", 10) == "Tea"


def test_text_of_exactly_the_width_is_kept():
    assert shorten("Carrot cake", 11) == "Carrot cake"


def test_long_text_is_cut_to_the_width():
    assert shorten("Lemon drizzle cake", 10) == "Lemon d..."
    assert len(shorten("Lemon drizzle cake", 10)) == 10


def test_spaces_are_tidied():
    assert shorten("  Scones   with  jam ", 20) == "Scones with jam"
