from listing import line
from people import get_full_name


def test_full_name_is_title_case():
    assert get_full_name({"first": "ada", "last": "lovelace"}) == "Ada Lovelace"


def test_missing_last_name():
    assert get_full_name({"first": "grace", "last": ""}) == "Grace"


def test_line_pads_the_name():
    assert line({"first": "bo", "last": "li", "city": "Oslo"}) == "Bo Li           Oslo"
