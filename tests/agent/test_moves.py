"""A moves-only task read from its words, and each file's text with the move made."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hearth.agent.moves import Move, move_asked, moved_names, moved_text, rest_of_move

SHOP = '''"""The shop's price list."""

import re

TAX = 20


def parse_price(text):
    """Cents from "1.20" or "95p"."""
    text = text.strip()
    if text.endswith("p"):
        return int(text[:-1])
    pounds, _, pence = text.partition(".")
    return int(pounds) * 100 + int((pence + "00")[:2])


PRICES = {name: parse_price(text) for name, text in {"apples": "1.20", "pears": "95p"}.items()}


def show(prices):
    for name, cents in sorted(prices.items()):
        print(f"{name}: {cents + cents * TAX // 100}")


if __name__ == "__main__":
    show(PRICES)
'''
IMPORTER = """import sys

from shop import PRICES, parse_price, show


def load(path):
    prices = dict(PRICES)
    for line in open(path):
        item, price = line.strip().split(",")
        prices[item] = parse_price(price)
    return prices


if __name__ == "__main__":
    show(load(sys.argv[1]))
"""
TASK = (
    "Move the function parse_price from shop.py into a new module prices.py, and import it from "
    "there in shop.py and importer.py. python3 shop.py and python3 importer.py stock.csv must "
    "print the same as before."
)


def test_a_moves_only_task_is_read_with_its_files() -> None:
    move = move_asked(TASK)
    assert move is not None
    assert (move.source, move.target) == ("shop.py", "prices.py")
    assert "parse_price" in move.names
    dates = move_asked(
        "Move the date functions parse_date and format_date out of utils.py into a new module "
        "dates.py (MONTHS too, as only they use it), and make app.py import them from there."
    )
    assert dates is not None and {"parse_date", "format_date", "MONTHS"} <= set(dates.names)
    assert move_asked("Move the function f from a.py into b.py, and make it return 0 for None.") is None
    assert move_asked("Move notes.txt into a new folder archive/.") is None
    assert move_asked("Rename parse_price to read_price in shop.py and importer.py.") is None


def test_every_file_of_the_move_runs_as_before(tmp_path: Path) -> None:
    """The mechanical texts, written, give the same output; nothing but the move changed."""
    (tmp_path / "shop.py").write_text(SHOP)
    (tmp_path / "importer.py").write_text(IMPORTER)
    (tmp_path / "stock.csv").write_text("figs,40p\n")
    before = [_run(tmp_path, "shop.py"), _run(tmp_path, "importer.py", "stock.csv")]
    move = move_asked(TASK)
    assert move is not None
    texts: dict[str, str] = {}
    for path in ("prices.py", "shop.py", "importer.py"):
        text = moved_text(move, path, _read(tmp_path / path), SHOP)
        assert text is not None, path
        texts[path] = text
        (tmp_path / path).write_text(text)
    assert [_run(tmp_path, "shop.py"), _run(tmp_path, "importer.py", "stock.csv")] == before
    assert "def parse_price" not in texts["shop.py"] and "TAX = 20" in texts["shop.py"]
    assert "from prices import parse_price" in texts["shop.py"]
    assert "from shop import PRICES, show\nfrom prices import parse_price\n" in texts["importer.py"]
    assert texts["prices.py"].startswith("def parse_price(text):")
    assert moved_names(move, SHOP) == ["parse_price"]


def test_a_definition_only_the_moved_ones_use_goes_with_them() -> None:
    source = (
        "import datetime\n\nMONTHS = ['Jan', 'Feb']\nSEP = '-'\n\n\n"
        "def parse_date(text):\n    return datetime.date.fromisoformat(text)\n\n\n"
        "def format_date(day):\n    return f'{day.day} {MONTHS[day.month - 1]}'\n\n\n"
        "def slug(text):\n    return text.replace(' ', SEP)\n"
    )
    move = Move(("parse_date", "format_date"), "utils.py", "dates.py")
    target = moved_text(move, "dates.py", None, source)
    assert target == (
        "import datetime\n\n\nMONTHS = ['Jan', 'Feb']\n\n\n"
        "def parse_date(text):\n    return datetime.date.fromisoformat(text)\n\n\n"
        "def format_date(day):\n    return f'{day.day} {MONTHS[day.month - 1]}'\n"
    )
    rest = moved_text(move, "utils.py", source, source)
    assert rest is not None and "MONTHS" not in rest and "SEP = '-'" in rest and "def slug" in rest
    assert "from dates import" not in rest  # nothing left uses them


def test_what_the_mover_cannot_read_is_left_to_the_model() -> None:
    move = Move(("parse_price",), "shop.py", "prices.py")
    assert moved_text(move, "prices.py", None, "def parse_price(:\n") is None  # does not parse
    assert moved_text(Move(("nothing",), "shop.py", "prices.py"), "prices.py", None, SHOP) is None
    assert moved_text(move, "README.md", "# Shop\n", SHOP) is None
    assert moved_text(move, "other.py", "import os\n", SHOP) is None  # imports nothing moved


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


def _run(folder: Path, *args: str) -> str:
    return subprocess.run(
        [sys.executable, *args], cwd=folder, capture_output=True, text=True, check=True
    ).stdout


def test_a_move_made_once_is_not_made_twice(tmp_path: Path) -> None:
    """The new module that has the moved definitions already is left as it is; the rest of the
    move is the files still importing them from the source."""
    move = move_asked(TASK)
    assert move is not None
    prices = moved_text(move, "prices.py", None, SHOP)
    assert prices is not None and moved_text(move, "prices.py", prices, SHOP) == prices
    shop = moved_text(move, "shop.py", SHOP, SHOP)
    assert shop is not None
    (tmp_path / "prices.py").write_text(prices)
    (tmp_path / "shop.py").write_text(shop)
    (tmp_path / "importer.py").write_text(IMPORTER)
    changes = rest_of_move(move, tmp_path, {"shop.py": SHOP}, lambda rel: _read(tmp_path / rel))
    assert list(changes) == ["importer.py"]
    assert changes["importer.py"][0] == IMPORTER
    assert "from prices import parse_price" in changes["importer.py"][1]


FLASHCARDS = """CARDS = [("der Apfel", "the apple", "2024-03-01", 1)]


def next_interval(days, right):
    return days * 2 if right else 1


def due_cards(cards, today):
    return [c for c in cards if c[2] <= today]


def main():
    print(due_cards(CARDS, "2024-03-02"))
"""
SCHEDULING = """def next_interval(days, right):
    return days * 2 if right else 1


def due_cards(cards, today):
    return [c for c in cards if c[2] <= today]
"""
MOVE_TASK = (
    "flashcards.py is getting crowded. Move next_interval and due_cards into a new module, "
    "scheduling.py; flashcards.py keeps CARDS and main() and imports what it needs from scheduling."
)


def _reader(root: Path) -> Callable[[str], str | None]:  # the finish reads through safe paths; here plainly
    return lambda rel: (root / rel).read_text() if (root / rel).is_file() else None


def test_a_move_into_a_new_module_with_the_definitions_left_behind_is_not_finished(tmp_path: Path) -> None:
    from hearth.agent.moves import left_behind

    (tmp_path / "flashcards.py").write_text(FLASHCARDS)
    assert "there is no scheduling.py" in left_behind(MOVE_TASK, tmp_path, _reader(tmp_path))
    (tmp_path / "scheduling.py").write_text(SCHEDULING.split("\n\n\ndef due_cards")[0] + "\n")
    assert "scheduling.py does not define them" in left_behind(MOVE_TASK, tmp_path, _reader(tmp_path))
    (tmp_path / "scheduling.py").write_text(SCHEDULING)
    found = left_behind(MOVE_TASK, tmp_path, _reader(tmp_path))
    assert "flashcards.py still defines next_interval, due_cards" in found
    assert "from scheduling import" in found
    moved = FLASHCARDS.split("\n\n\ndef next_interval")[0]
    (tmp_path / "flashcards.py").write_text(
        "from scheduling import due_cards\n\n"
        + moved
        + "\n\n\ndef main():\n    print(due_cards(CARDS, 'x'))\n"
    )
    assert left_behind(MOVE_TASK, tmp_path, _reader(tmp_path)) == ""


def test_only_names_the_workspace_defines_are_judged(tmp_path: Path) -> None:
    from hearth.agent.moves import left_behind

    (tmp_path / "flashcards.py").write_text(FLASHCARDS)
    (tmp_path / "test_flashcards.py").write_text("def next_interval(d, r):\n    return 0\n")
    (tmp_path / "scheduling.py").write_text(SCHEDULING)
    (tmp_path / "flashcards.py").write_text("from scheduling import due_cards, next_interval\n")
    # a test file's helper of the same name is no copy of the moved code
    assert left_behind(MOVE_TASK, tmp_path, _reader(tmp_path)) == ""
    # words that name nothing defined, and a file moved rather than definitions: not judged
    assert left_behind("Move the cursor handling into widgets.py", tmp_path, _reader(tmp_path)) == ""
    assert left_behind("Move flashcards.py to old/flashcards.py", tmp_path, _reader(tmp_path)) == ""
