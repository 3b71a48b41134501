import pytest

from versions import is_newer, newest, parse, sort_versions


def test_parse_allows_a_leading_v():
    assert parse("v2.0.1") == (2, 0, 1)


def test_a_later_patch_is_newer():
    assert is_newer("1.2.10", "1.2.9")
    assert not is_newer("1.2.9", "1.2.10")


def test_newest_of_several():
    assert newest(["1.9.0", "1.10.0", "1.2.3"]) == "1.10.0"


def test_sort_oldest_first():
    assert sort_versions(["2.0.0", "0.9.1", "1.0.0"]) == ["0.9.1", "1.0.0", "2.0.0"]


def test_no_versions():
    with pytest.raises(ValueError):
        newest([])
