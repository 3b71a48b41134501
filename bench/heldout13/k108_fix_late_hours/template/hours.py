"""Opening hours. A range is 'HH:MM-HH:MM': open from the first time up to, but not including, the
second. A range whose end is not after its start runs past midnight: '22:00-02:00' is open from ten
at night until two the next morning."""


def minutes(text):
    """Minutes since midnight of 'HH:MM': minutes('09:30') == 570."""
    hours, mins = text.split(":")
    return int(hours) * 60 + int(mins)


def span(text):
    """The start and end of a range, in minutes since midnight."""
    start, end = text.split("-")
    return minutes(start), minutes(end)


def is_open(ranges, time):
    """Whether one of `ranges` is open at `time` ('HH:MM')."""
    now = minutes(time)
    for text in ranges:
        start, end = span(text)
        if start <= now < end:
            return True
    return False


def open_minutes(ranges):
    """How many minutes a day `ranges` are open in all (they do not overlap)."""
    return sum(end - start for start, end in map(span, ranges))


if __name__ == "__main__":
    pub = ["12:00-14:30", "17:00-01:30"]
    for time in ("11:00", "13:15", "23:45", "01:00", "02:00"):
        print(time, "open" if is_open(pub, time) else "closed")
    print(open_minutes(pub), "minutes a day")
