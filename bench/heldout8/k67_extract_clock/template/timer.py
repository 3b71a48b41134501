"""Print the times of a run's laps and its total time."""

LAPS = [("warm-up", 305), ("lap 1", 1297), ("lap 2", 1330), ("cool-down", 900)]


def show_laps(laps):
    for name, seconds in laps:
        minutes, secs = divmod(seconds, 60)
        hours, minutes = divmod(minutes, 60)
        if hours:
            text = f"{hours}:{minutes:02d}:{secs:02d}"
        else:
            text = f"{minutes}:{secs:02d}"
        print(f"{name:>10}  {text}")


def show_total(laps):
    seconds = sum(lap_seconds for _, lap_seconds in laps)
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        text = f"{hours}:{minutes:02d}:{secs:02d}"
    else:
        text = f"{minutes}:{secs:02d}"
    print(f"total {text} over {len(laps)} laps")


if __name__ == "__main__":
    show_laps(LAPS)
    show_total(LAPS)
