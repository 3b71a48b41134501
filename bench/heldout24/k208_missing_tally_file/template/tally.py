"""Keeps counts of things: `python3 tally.py add NAME` adds one to NAME's count, and
`python3 tally.py show` lists all the counts. They are kept in tally.json."""

import json
import sys

FILE = "tally.json"


def load():
    with open(FILE) as f:
        return json.load(f)


def save(counts):
    with open(FILE, "w") as f:
        json.dump(counts, f, indent=2, sort_keys=True)


def main(args):
    counts = load()
    if args[0] == "add":
        name = args[1]
        counts[name] = counts.get(name, 0) + 1
        save(counts)
        print(f"{name}: {counts[name]}")
    elif args[0] == "show":
        for name in sorted(counts):
            print(f"{name}: {counts[name]}")


if __name__ == "__main__":
    main(sys.argv[1:])
