"""Durations for the kitchen timer, written the short way: "1h30m", "45m", "90s"."""


def format_duration(seconds):
    """A number of seconds the short way, leaving out the zero parts: 5400 -> "1h30m"."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (secs, "s")) if n]
    return "".join(parts) or "0s"


def parse_duration(text):
    """How many seconds a duration written the short way stands for.

    A duration is one or more parts, each a whole number followed by its unit: h (hours),
    m (minutes) or s (seconds). The parts come in that order, each unit at most once, and
    there may be spaces between them. So "2h", "45m", "1h30m", "1h 30m", "90s" and "1h2m3s"
    are durations; "", "5", "1.5h", "30m1h", "1h1h" and "2d" are not, and raise ValueError.
    """
    raise NotImplementedError
