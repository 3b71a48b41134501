"""Running pace: python3 pace.py KM TIME prints the time per km and the speed.

TIME is M:SS or H:MM:SS, as a watch shows it: python3 pace.py 10 52:30"""

import sys


def seconds(time):
    """'52:30' or '1:05:00' as a number of seconds."""
    total = 0
    for part in time.split(":"):
        total = total * 60 + int(part)
    return total


def clock(secs):
    """A number of seconds as M:SS, or H:MM:SS from an hour on, to the nearest second."""
    hours, rest = divmod(int(secs), 3600)
    minutes = rest // 60
    left = round(secs - hours * 3600 - minutes * 60)
    if hours:
        return f"{hours}:{minutes:02d}:{left:02d}"
    return f"{minutes}:{left:02d}"


def pace(km, time):
    """The time per km, as M:SS."""
    return clock(seconds(time) / km)


def main(args):
    km, time = float(args[0]), args[1]
    speed = km / seconds(time) * 3600
    print(f"pace {pace(km, time)} /km, {speed:.1f} km/h")


if __name__ == "__main__":
    main(sys.argv[1:])
