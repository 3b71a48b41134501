"""Count the lines, words and characters of a text file."""

import argparse


def stats(text):
    return {"lines": len(text.splitlines()), "words": len(text.split()), "chars": len(text)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file) as f:
        counts = stats(f.read())
    for name, value in counts.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
