import pytest

from paging import footer, page, page_count


def test_full_pages():
    assert page_count(9, 3) == 3
    assert page_count(20, 10) == 2


def test_a_partly_filled_last_page_counts():
    assert page_count(10, 3) == 4
    assert page_count(1, 25) == 1


def test_no_items_is_one_page():
    assert page_count(0, 5) == 1


def test_last_page_has_the_rest():
    assert page(list("abcdefg"), 3, 3) == ["g"]
    assert page(list("abcdefg"), 1, 3) == ["a", "b", "c"]


def test_pages_out_of_range():
    with pytest.raises(IndexError):
        page(list("abc"), 2, 3)
    with pytest.raises(IndexError):
        page(list("abc"), 0, 3)


def test_footer():
    assert footer(2, 45, 20) == "page 2 of 3"
