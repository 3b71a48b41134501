"""Print the entries of a journal file by date, one per line: `2026-03-05  Planted the tomatoes`."""

import argparse


def read_entries(path):
    """(date, text) for each line `YYYY-MM-DD text`; blank lines are skipped."""
    entries = []
    with open(path) as f:
        for line in f:
            if line.strip():
                day, text = line.strip().split(" ", 1)
                entries.append((day, text.strip()))
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--until", metavar="DATE", help="only the entries on or before DATE (YYYY-MM-DD)")
    args = parser.parse_args()
    entries = read_entries(args.file)
    if args.until:
        entries = [(day, text) for day, text in entries if day <= args.until]
    for day, text in sorted(entries, key=lambda entry: entry[0]):
        print(f"{day}  {text}")


if __name__ == "__main__":
    main()
