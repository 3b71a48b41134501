"""A tiny to-do list kept in todo.json.

    python3 todo.py add "buy milk"
    python3 todo.py list
"""

import argparse
import json
import os

FILE = "todo.json"


def load():
    if not os.path.exists(FILE):
        return []
    with open(FILE) as f:
        return json.load(f)


def save(items):
    with open(FILE, "w") as f:
        json.dump(items, f)


def main(argv=None):
    parser = argparse.ArgumentParser(description="A tiny to-do list.")
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("add", help="add an item")
    add.add_argument("text")
    commands.add_parser("list", help="show the items, numbered from 1")
    args = parser.parse_args(argv)
    items = load()
    if args.command == "add":
        items.append(args.text)
        save(items)
    elif args.command == "list":
        for number, text in enumerate(items, 1):
            print(f"{number}. {text}")


if __name__ == "__main__":
    main()
