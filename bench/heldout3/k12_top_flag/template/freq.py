"""Print how often each word occurs in a file, most frequent first: python3 freq.py FILE"""

import argparse
from collections import Counter


def word_counts(text):
    counts = Counter(text.lower().split())
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Count the words in a file.")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        for word, count in word_counts(f.read()):
            print(f"{word} {count}")


if __name__ == "__main__":
    main()
