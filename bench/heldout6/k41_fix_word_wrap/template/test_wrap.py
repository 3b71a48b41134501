from wrap import line_count, wrap


def test_empty_text_has_no_lines():
    assert wrap("", 5) == []


def test_a_line_may_be_exactly_the_width():
    assert wrap("the quick brown fox", 9) == ["the quick", "brown fox"]


def test_short_words():
    assert wrap("a b c", 3) == ["a b", "c"]


def test_line_count():
    assert line_count("one two three", 7) == 2
