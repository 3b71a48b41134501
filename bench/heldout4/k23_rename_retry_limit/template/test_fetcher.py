import pytest

from fetcher import fetch, wait_times
from settings import MAX_RETRIES


def test_wait_times_double():
    assert wait_times(3) == [2, 4, 8]
    assert len(wait_times()) == MAX_RETRIES


def test_fetch_retries_until_success():
    answers = iter([None, None, "feed"])
    assert fetch(lambda url: next(answers), "http://example.test") == ("feed", 2)


def test_fetch_gives_up():
    calls = []
    with pytest.raises(RuntimeError):
        fetch(lambda url: calls.append(url), "http://example.test")
    assert len(calls) == MAX_RETRIES + 1
