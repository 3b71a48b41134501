"""Total the birds seen per species from a CSV log (date,species,count), most seen first."""

import argparse
import csv
from collections import Counter


def totals(path):
    seen = Counter()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            seen[row["species"]] += int(row["count"])
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    args = parser.parse_args()
    for species, count in totals(args.file).most_common():
        print(f"{species}: {count}")


if __name__ == "__main__":
    main()
