"""Print the distinct words of a text file, in lower case and sorted, one per line."""

import argparse
import re


def words(text):
    return re.findall(r"[a-z']+", text.lower())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--min-length", type=int, default=1, metavar="N", help="leave out words shorter than N letters")
    parser.add_argument("--count", action="store_true", help="print how many words there are instead")
    args = parser.parse_args()
    with open(args.file) as f:
        found = sorted(set(words(f.read())))
    if args.count:
        print(len(found))
    else:
        for word in found:
            print(word)


if __name__ == "__main__":
    main()
