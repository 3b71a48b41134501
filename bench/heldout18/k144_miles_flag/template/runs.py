"""Print the runs in a log file (one `date kilometres` a line) and their total."""

import argparse


def read_runs(path):
    runs = []
    with open(path) as f:
        for line in f:
            if line.strip():
                day, km = line.split()
                runs.append((day, float(km)))
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    args = parser.parse_args()
    runs = read_runs(args.file)
    for day, km in runs:
        print(f"{day} {km:.2f} km")
    print(f"total {sum(km for _, km in runs):.2f} km")


if __name__ == "__main__":
    main()
