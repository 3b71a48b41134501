import pytest

from durations import format_duration, parse_duration


def test_format_duration():
    assert format_duration(5400) == "1h30m"
    assert format_duration(45) == "45s"
    assert format_duration(0) == "0s"


def test_parse_one_part():
    assert parse_duration("2h") == 7200
    assert parse_duration("45m") == 2700
    assert parse_duration("90s") == 90


def test_parse_several_parts():
    assert parse_duration("1h30m") == 5400
    assert parse_duration("1h 30m") == 5400


def test_parse_rejects_what_is_not_a_duration():
    for text in ["", "2d"]:
        with pytest.raises(ValueError):
            parse_duration(text)
