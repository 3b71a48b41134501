"""Count the votes in a file (one candidate's name a line) and print the results, most votes first."""

import argparse
from collections import Counter


def count_votes(path):
    with open(path) as f:
        return Counter(line.strip() for line in f if line.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    args = parser.parse_args()
    votes = count_votes(args.file)
    for name, count in votes.most_common():
        print(f"{name}: {count}")


if __name__ == "__main__":
    main()
