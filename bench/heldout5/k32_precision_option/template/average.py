"""Print the average of the numbers in a file, one number per line: python3 average.py FILE"""

import argparse


def average(text):
    numbers = [float(line) for line in text.splitlines() if line.strip()]
    if not numbers:
        return 0.0
    return sum(numbers) / len(numbers)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Average the numbers in a file.")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        value = average(f.read())
    print(f"{value:.2f}")


if __name__ == "__main__":
    main()
