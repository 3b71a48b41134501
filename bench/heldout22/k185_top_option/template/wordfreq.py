"""Counts the words in a text file, most frequent first: python3 wordfreq.py FILE"""

import argparse
import re
from collections import Counter


def count_words(text):
    return Counter(re.findall(r"[a-z']+", text.lower()))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Count the words in a text file.")
    parser.add_argument("file", help="the text file to read")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        counts = count_words(f.read())
    for word, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(f"{n:4} {word}")


if __name__ == "__main__":
    main()
