#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > csvcol.py <<'PY'
"""Print one column of a CSV file, one value a line: python3 csvcol.py FILE COLUMN"""

import argparse
import csv


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("column")
    parser.add_argument("--where", metavar="COLUMN=VALUE", help="keep only the rows where COLUMN is VALUE")
    args = parser.parse_args(argv)
    key, value = args.where.split("=", 1) if args.where else (None, None)
    with open(args.file, newline="") as f:
        for row in csv.DictReader(f):
            if key is None or row[key] == value:
                print(row[args.column])


if __name__ == "__main__":
    main()
PY
cat >> test_csvcol.py <<'PY'


def test_where():
    assert run("--where", "genre=sci-fi", "books.csv", "title") == ["Dune", "Neuromancer"]
PY
