import argparse


def greeting(name: str) -> str:
    return f"Hello, {name}!"


def main() -> None:
    parser = argparse.ArgumentParser(description="Greet someone.")
    parser.add_argument("name")
    args = parser.parse_args()
    print(greeting(args.name))


if __name__ == "__main__":
    main()
