from initials import initials


def test_two_names():
    assert initials("ada lovelace") == "A.L."


def test_three_names():
    assert initials("Grace Brewster Hopper") == "G.B.H."


def test_hyphenated_name():
    assert initials("Mary-Kate Olsen") == "M.K.O."


def test_extra_spaces():
    assert initials("  Alan   Turing ") == "A.T."
