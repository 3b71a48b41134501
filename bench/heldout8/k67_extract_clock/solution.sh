#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > timer.py <<'PY'
"""Print the times of a run's laps and its total time."""

LAPS = [("warm-up", 305), ("lap 1", 1297), ("lap 2", 1330), ("cool-down", 900)]


def clock(seconds):
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def show_laps(laps):
    for name, seconds in laps:
        print(f"{name:>10}  {clock(seconds)}")


def show_total(laps):
    seconds = sum(lap_seconds for _, lap_seconds in laps)
    print(f"total {clock(seconds)} over {len(laps)} laps")


if __name__ == "__main__":
    show_laps(LAPS)
    show_total(LAPS)
PY
