"""Print one column of a CSV file, one value a line: python3 csvcol.py FILE COLUMN"""

import argparse
import csv


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("column")
    args = parser.parse_args(argv)
    with open(args.file, newline="") as f:
        for row in csv.DictReader(f):
            print(row[args.column])


if __name__ == "__main__":
    main()
