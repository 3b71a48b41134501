from pace import clock, pace, seconds


def test_seconds():
    assert seconds("52:30") == 3150
    assert seconds("1:05:00") == 3900


def test_clock():
    assert clock(75) == "1:15"
    assert clock(3725) == "1:02:05"


def test_pace():
    assert pace(10, "52:30") == "5:15"
    assert pace(5, "24:10") == "4:50"
