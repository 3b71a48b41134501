import helpers


def test_title_case():
    assert helpers.title_case("grace  hopper") == "Grace Hopper"


def test_initials():
    assert helpers.initials("alan mathison turing") == "AMT"
