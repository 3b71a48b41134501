"""Print the non-blank lines of a file joined into one line."""

import argparse


def join_lines(lines, sep=", "):
    return sep.join(line.strip() for line in lines if line.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file) as f:
        print(join_lines(f))


if __name__ == "__main__":
    main()
