"""Print a URL slug for each title in a file: python3 slugs.py titles.txt"""

import argparse
import re


def slug(title):
    """'Hello, World!' -> 'hello-world'."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def slugs(path):
    """The slugs of the file's non-blank lines, in order."""
    with open(path, encoding="utf-8") as f:
        return [slug(line) for line in f if line.strip()]


def main():
    parser = argparse.ArgumentParser(description="Print a URL slug for each title in a file.")
    parser.add_argument("file", help="a text file with one title a line")
    args = parser.parse_args()
    for line in slugs(args.file):
        print(line)


if __name__ == "__main__":
    main()
