"""Print the non-blank lines of a file in sorted order: python3 sortlines.py FILE"""

import argparse


def sorted_lines(text):
    return sorted(line for line in text.splitlines() if line.strip())


def main(argv=None):
    parser = argparse.ArgumentParser(description="Sort the lines of a file.")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        lines = sorted_lines(f.read())
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
