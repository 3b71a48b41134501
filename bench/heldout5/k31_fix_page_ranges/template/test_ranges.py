from ranges import count_pages, parse_ranges


def test_single_pages():
    assert parse_ranges("4,2") == [4, 2]


def test_a_range_includes_both_ends():
    assert parse_ranges("1-3,7") == [1, 2, 3, 7]


def test_spaces_and_empty_parts_are_ignored():
    assert parse_ranges(" 5 , ,9-10") == [5, 9, 10]


def test_count_pages():
    assert count_pages("2-6") == 5
