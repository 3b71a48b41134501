"""Greets someone: python3 greet.py NAME [--times N]"""

import argparse


def main():
    parser = argparse.ArgumentParser(description="Greet someone.")
    parser.add_argument("name")
    parser.add_argument("--times", type=int, default=1, help="how many times to greet")
    args = parser.parse_args()
    for _ in range(args.times):
        print(f"Hello, {args.name}! Nice to see you.")


if __name__ == "__main__":
    main()
