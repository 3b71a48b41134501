"""Print the lines of a file that contain a word, with their line numbers."""

import argparse


def matching_lines(lines, word):
    found = []
    for number, line in enumerate(lines, start=1):
        if word in line:
            found.append(f"{number}: {line.rstrip()}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("word")
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file) as f:
        for line in matching_lines(f, args.word):
            print(line)


if __name__ == "__main__":
    main()
