"""python3 app.py prints the events page's list of events."""

from utils import format_date, parse_date, slugify, truncate

EVENTS = [
    ("Summer Fair 2026!", "2026-07-04", "Stalls, a brass band and the dog show on the green."),
    ("Quiz Night", "18/9/2026", "Teams of up to six; bring a pen."),
    ("Carol Singing", "2026-12-19", "Meet at the church gate at six, lanterns provided."),
]


def main():
    for title, when, about in sorted(EVENTS, key=lambda event: parse_date(event[1])):
        print(f"{format_date(parse_date(when))}  {slugify(title)}  {truncate(about, 30)}")


if __name__ == "__main__":
    main()
