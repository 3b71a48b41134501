from watering import next_watering, schedule


def test_same_month():
    assert next_watering("2024-05-01", 3) == "2024-05-04"
    assert next_watering("2024-05-30", 1) == "2024-05-31"


def test_into_the_next_month():
    assert next_watering("2024-04-28", 5) == "2024-05-03"


def test_into_the_new_year():
    assert next_watering("2023-12-30", 7) == "2024-01-06"


def test_leap_day():
    assert next_watering("2024-02-27", 2) == "2024-02-29"
    assert next_watering("2024-02-28", 2) == "2024-03-01"


def test_schedule_soonest_first():
    plants = [("fern", "2024-06-28", 4), ("cactus", "2024-05-20", 30), ("basil", "2024-06-30", 1)]
    assert schedule(plants) == ["cactus: 2024-06-19", "basil: 2024-07-01", "fern: 2024-07-02"]
