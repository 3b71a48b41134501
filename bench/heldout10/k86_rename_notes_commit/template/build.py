"""Turn the recipe notes into a numbered list."""

SOURCE = "notes.txt"


def main():
    with open(SOURCE) as f:
        lines = [line.strip() for line in f if line.strip()]
    for number, line in enumerate(lines, 1):
        print(f"{number}. {line}")


if __name__ == "__main__":
    main()
