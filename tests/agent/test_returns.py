"""A function the task says returns something, left returning nothing (agent/returns)."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.returns import returns_nothing, said_to_return

TASK = (
    "Split main() in report.py into load(path), which returns the rows of the CSV file as a list "
    "of dicts, and render(rows), which returns the whole report as one string, so that main() "
    "just prints render(load(path))."
)
PRINTING = (
    "import csv\n\n\ndef load(path):\n    with open(path) as f:\n        return list(csv.DictReader(f))\n\n\n"
    "def render(rows):\n    for row in rows:\n        print(row['shop'])\n"
)


def test_the_functions_the_task_says_return_something() -> None:
    assert said_to_return(TASK) == ["load", "render"]
    assert said_to_return("Make `total` return the sum; the function returns an int.") == ["total"]
    assert said_to_return("Fix bill.py so that total() should return 0 for no items.") == ["total"]
    assert said_to_return("Print the report.") == []


def test_a_function_that_prints_what_it_is_to_return_is_named(tmp_path: Path) -> None:
    (tmp_path / "report.py").write_text(PRINTING)
    problem = returns_nothing(TASK, tmp_path, ["report.py"])
    assert "render" in problem and "report.py" in problem and "load" not in problem


def test_a_return_of_a_value_or_a_yield_is_enough_and_a_nested_return_is_not(tmp_path: Path) -> None:
    returning = PRINTING.replace(
        "    for row in rows:\n        print(row['shop'])\n",
        "    return '\\n'.join(r['shop'] for r in rows)\n",
    )
    (tmp_path / "a.py").write_text(returning)
    assert returns_nothing(TASK, tmp_path, ["a.py"]) == ""
    (tmp_path / "b.py").write_text(
        PRINTING.replace("        print(row['shop'])", "        yield row['shop']")
    )
    assert returns_nothing(TASK, tmp_path, ["b.py"]) == ""
    nested = PRINTING + "    def line(row):\n        return row['shop']\n    return None\n"
    (tmp_path / "c.py").write_text(nested)
    assert "render" in returns_nothing(TASK, tmp_path, ["c.py"])


def test_files_without_the_function_or_broken_ones_say_nothing(tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text("def main():\n    print('hi')\n")
    (tmp_path / "broken.py").write_text("def render(rows:\n")
    assert returns_nothing(TASK, tmp_path, ["other.py", "broken.py", "notes.txt"]) == ""
