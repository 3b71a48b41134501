import pytest

from batching import batch_count, chunk


def test_even_split():
    assert chunk([1, 2, 3, 4, 5, 6], 2) == [[1, 2], [3, 4], [5, 6]]


def test_last_batch_is_shorter():
    assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]


def test_empty():
    assert chunk([], 3) == []


def test_bad_size():
    with pytest.raises(ValueError):
        chunk([1, 2], 0)


def test_batch_count():
    assert batch_count(10, 3) == 4
    assert batch_count(9, 3) == 3
