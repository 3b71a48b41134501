from ago import ago


def test_just_now():
    assert ago(0) == "just now"
    assert ago(45) == "just now"


def test_minutes():
    assert ago(150) == "2 minutes ago"
    assert ago(40 * 60) == "40 minutes ago"


def test_one_minute():
    assert ago(60) == "1 minute ago"
    assert ago(100) == "1 minute ago"


def test_hours():
    assert ago(3 * 3600 + 59) == "3 hours ago"


def test_one_day():
    assert ago(86400) == "1 day ago"
    assert ago(30 * 3600) == "1 day ago"


def test_days():
    assert ago(10 * 86400 + 7) == "10 days ago"
