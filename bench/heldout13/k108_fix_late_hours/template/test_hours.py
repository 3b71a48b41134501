from hours import is_open, minutes, open_minutes


def test_minutes():
    assert minutes("00:00") == 0
    assert minutes("09:30") == 570
    assert minutes("23:59") == 1439


def test_open_in_the_day():
    assert is_open(["09:00-17:30"], "09:00")
    assert is_open(["09:00-17:30"], "12:15")
    assert not is_open(["09:00-17:30"], "17:30")
    assert not is_open(["09:00-17:30"], "08:59")


def test_open_with_a_lunch_break():
    shop = ["09:00-12:30", "13:30-18:00"]
    assert is_open(shop, "12:29")
    assert not is_open(shop, "13:00")
    assert is_open(shop, "13:30")


def test_open_late_at_night():
    bar = ["17:00-01:30"]
    assert is_open(bar, "23:45")
    assert is_open(bar, "00:10")
    assert not is_open(bar, "01:30")
    assert not is_open(bar, "16:59")


def test_open_minutes():
    assert open_minutes(["09:00-17:30"]) == 510
    assert open_minutes(["09:00-12:30", "13:30-18:00"]) == 480
    assert open_minutes(["17:00-01:30"]) == 510
