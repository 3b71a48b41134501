"""Counts the lines and words of a file: python3 count.py FILE"""

import sys


def main():
    name = sys.argv[1]
    with open(name) as f:
        text = f.read()
    print(f"{name}: {len(text.splitlines())} lines, {len(text.split())} words")


if __name__ == "__main__":
    main()
