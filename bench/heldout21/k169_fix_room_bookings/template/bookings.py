"""Bookings for the office meeting rooms."""

from datetime import datetime

FORMAT = "%Y-%m-%d %H:%M"


def parse(text):
    return datetime.strptime(text, FORMAT)


def overlaps(a, b):
    """Whether two bookings (start, end) share any time. A booking may start when another ends."""
    return a[0] <= b[0] < a[1] or a[0] < b[1] <= a[1]


class Room:
    def __init__(self, name):
        self.name = name
        self.bookings = []

    def book(self, start, end, who):
        slot = (parse(start), parse(end))
        if slot[1] <= slot[0]:
            raise ValueError("a booking must end after it starts")
        for other in self.bookings:
            if overlaps(slot, other[:2]):
                raise ValueError(f"{self.name} is already booked by {other[2]}")
        self.bookings.append((*slot, who))

    def free_at(self, when):
        moment = parse(when)
        return not any(start <= moment < end for start, end, _ in self.bookings)

    def day_plan(self, day):
        """The bookings on `day` (YYYY-MM-DD), earliest first, as 'HH:MM-HH:MM who'."""
        plan = [b for b in self.bookings if b[0].strftime("%Y-%m-%d") == day]
        return [f"{s:%H:%M}-{e:%H:%M} {who}" for s, e, who in sorted(plan, key=lambda b: b[2])]
