"""List the recipes a page at a time (python3 app.py [PAGE]), or search them (python3 app.py -s WORD)."""

import json
import sys

RECIPES = [
    "Pea risotto",
    "Chickpea curry",
    "Lemon pasta",
    "Fish tacos",
    "Tomato soup",
    "Chicken pie",
    "Pea and ham soup",
    "Veggie chilli",
    "Egg fried rice",
    "Chickpea salad",
]


def load_config(path="config.json"):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def page(items, number, config):
    """The items on page `number` (counting from 1)."""
    size = config["max_items"]
    start = (number - 1) * size
    return items[start : start + size]


def search(items, word, config):
    """The first few items that contain `word`, ignoring case."""
    found = [item for item in items if word.lower() in item.lower()]
    return found[: config["max_items_in_search"]]


def show(items, config):
    for number, item in enumerate(items, 1):
        print(f"{number}. {item}" if config["show_numbers"] else f"- {item}")


def main():
    config = load_config()
    if sys.argv[1:2] == ["-s"]:
        print(f"{config['title']}: {sys.argv[2]}")
        show(search(RECIPES, sys.argv[2], config), config)
        return
    number = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    pages = -(-len(RECIPES) // config["max_items"])
    print(f"{config['title']} (page {number} of {pages})")
    show(page(RECIPES, number, config), config)


if __name__ == "__main__":
    main()
