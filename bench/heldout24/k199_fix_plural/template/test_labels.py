from labels import join_names, plural, stock_line


def test_plural_of_one():
    assert plural(1, "apple") == "1 apple"


def test_plural_of_several():
    assert plural(3, "apple") == "3 apples"


def test_plural_of_zero():
    assert plural(0, "apple") == "0 apples"


def test_join_names():
    assert join_names(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy"


def test_stock_line():
    assert stock_line("pears", 4) == "pears: 4 crates"
    assert stock_line("plums", 0) == "plums: none left"
