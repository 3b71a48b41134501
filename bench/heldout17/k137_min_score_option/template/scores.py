import argparse


def read_scores(path):
    with open(path) as f:
        for line in f:
            if line.strip():
                name, score = line.split()
                yield name, int(score)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    args = parser.parse_args()
    for name, score in sorted(read_scores(args.file), key=lambda item: -item[1]):
        print(f"{name} {score}")


if __name__ == "__main__":
    main()
