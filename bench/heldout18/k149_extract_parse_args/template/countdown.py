"""Print the days left until an event: python3 countdown.py [--from DATE] [--weeks] DATE NAME."""

import argparse
from datetime import date


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("when", type=date.fromisoformat, help="the day of the event, YYYY-MM-DD")
    parser.add_argument("name", help="what the event is")
    parser.add_argument("--from", dest="start", type=date.fromisoformat, default=date.today())
    parser.add_argument("--weeks", action="store_true", help="count in weeks and days")
    args = parser.parse_args()

    days = (args.when - args.start).days
    if days < 0:
        print(f"{args.name} was {-days} days ago")
    elif args.weeks:
        print(f"{args.name} is in {days // 7} weeks and {days % 7} days")
    else:
        print(f"{args.name} is in {days} days")


if __name__ == "__main__":
    main()
