from slug import slugify, unique_slug


def test_simple_title():
    assert slugify("Hello World") == "hello-world"


def test_punctuation():
    assert slugify("Hello, World!") == "hello-world"


def test_runs_of_spaces_and_dashes():
    assert slugify("  Ten   tips -- for writing ") == "ten-tips-for-writing"


def test_numbers_stay():
    assert slugify("Top 10 of 2024") == "top-10-of-2024"


def test_unique_slug():
    assert unique_slug("My Trip", set()) == "my-trip"
    assert unique_slug("My Trip", {"my-trip"}) == "my-trip-2"
    assert unique_slug("My trip!", {"my-trip", "my-trip-2"}) == "my-trip-3"
