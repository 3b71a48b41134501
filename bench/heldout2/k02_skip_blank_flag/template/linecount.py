"""Count the lines of a text file: python3 linecount.py FILE"""

import argparse


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Count the lines of a file.")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    print(count_lines(args.file))


if __name__ == "__main__":
    main()
