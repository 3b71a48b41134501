"""Who does which chore, week by week: python3 rota.py people.txt [--weeks N]"""

import argparse

CHORES = ["bins", "bathroom", "kitchen", "hoovering"]


def read_people(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def rota(people, weeks):
    """One line a week; each week every chore passes to the next person in the list."""
    lines = []
    for week in range(weeks):
        jobs = [f"{chore}={people[(week + i) % len(people)]}" for i, chore in enumerate(CHORES)]
        lines.append(f"week {week + 1}: " + ", ".join(jobs))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description="Share out the house chores.")
    parser.add_argument("people", help="a file with one name a line")
    parser.add_argument("--weeks", type=int, default=4, help="how many weeks (default 4)")
    args = parser.parse_args(argv)
    for line in rota(read_people(args.people), args.weeks):
        print(line)


if __name__ == "__main__":
    main()
