"""The form of the lines a task shows, against what its script printed (agent/shapes)."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.shapes import plural_for_one, stray_line, unshaped

TASK = (
    "Write overdue.py: python3 overdue.py FILE DATE reads a CSV like loans.csv and prints "
    "`Dune (mia): 14 days late` for each book due before DATE (`1 day late` for one day), "
    "then a last line `2 books overdue`."
)


def test_a_line_of_another_form_is_found_and_one_of_the_form_is_not(tmp_path: Path) -> None:
    (tmp_path / "loans.csv").write_text("title,borrower,due\nDune,mia,2026-03-01\nWalden,lee,2026-02-15\n")
    wrong = "Walden (271 days late)\nDune (270 days late)\n2 books overdue\n"
    assert unshaped(TASK, tmp_path, wrong) == "Dune (mia): 14 days late"
    right = "Walden (lee): 28 days late\nDune (mia): 14 days late\n2 books overdue\n"
    assert unshaped(TASK, tmp_path, right) == ""
    # nothing about the data printed (another input, an error): nothing to judge
    assert unshaped(TASK, tmp_path, "nothing overdue\n") == ""
    assert unshaped(TASK, tmp_path, "(no output)") == ""


def test_only_printed_examples_naming_the_data_are_read(tmp_path: Path) -> None:
    (tmp_path / "loans.csv").write_text("title,borrower,due\nDune,mia,2026-03-01\n")
    task = "Write count.py: it reads a CSV like `Dune,mia,2026-03-01` and prints how many books there are."
    assert unshaped(task, tmp_path, "Dune: 1\n") == ""  # the example is the input, not the output
    task = "python3 count.py loans.csv prints `done` when it is finished."
    assert unshaped(task, tmp_path, "Dune\n") == ""  # an example naming no data and no number


def test_an_example_with_numbers_has_a_form_without_naming_the_data(tmp_path: Path) -> None:
    """The 1.5B's monthly totals printed `2026-01-03: 1508.1000000000001 (1 expenses)` for the
    form `2026-01: 736.70 (3 expenses)`, and it finished with exit 0."""
    (tmp_path / "expenses.csv").write_text("date,category,amount\n2026-01-03,rent,650.00\n")
    task = (
        "python3 monthly.py FILE reads a CSV like expenses.csv and prints one line per month in the "
        "form `2026-01: 736.70 (3 expenses)`, then a last line `most spent in 2026-02`; for a file "
        "with no rows it prints just `no expenses`."
    )
    wrong = "2026-01-03: 1508.1000000000001 (1 expenses)\nmost spent in 2026-01-03\n"
    assert unshaped(task, tmp_path, wrong) == "2026-01: 736.70 (3 expenses)"
    right = "2026-01: 650.00 (1 expenses)\nmost spent in 2026-01\n"
    assert unshaped(task, tmp_path, right) == ""
    assert unshaped(task, tmp_path, "no expenses\n") == ""  # another input's output: not judged
    placeholder = "python3 total.py FILE prints `total: N minutes`."
    assert unshaped(placeholder, tmp_path, "total: 170 minutes\n") == ""
    assert unshaped(placeholder, tmp_path, "170\n") == "total: N minutes"


PETS_TASK = (
    "Write species.py: python3 species.py FILE reads a file like pets.csv and prints one line per "
    "species, sorted by species, like `cat: 3 pets, oldest Mia (11)` (`1 pet` for one)."
)
PETS_RIGHT = "cat: 3 pets, oldest Mia (11)\nfish: 1 pet, oldest Bubbles (1)\n"


def pets(tmp_path: Path) -> Path:
    (tmp_path / "pets.csv").write_text("Mia,cat,11\nTom,cat,3\nBubbles,fish,1\n")
    return tmp_path


def test_a_count_of_one_in_the_plural_is_found_where_the_task_shows_the_singular(tmp_path: Path) -> None:
    wrong = PETS_RIGHT.replace("1 pet,", "1 pets,")
    assert unshaped(PETS_TASK, pets(tmp_path), wrong) == ""  # each line still has the form
    assert plural_for_one(PETS_TASK, wrong) == ("1 pet", "fish: 1 pets, oldest Bubbles (1)")
    assert plural_for_one(PETS_TASK, PETS_RIGHT) == ("", "")
    assert plural_for_one(PETS_TASK, "cat: 11 pets, oldest Mia (11)") == ("", "")  # 11, not 1
    assert plural_for_one(PETS_TASK.replace(" (`1 pet` for one)", ""), wrong) == ("", "")


def test_a_stray_line_naming_nothing_among_lines_of_the_form_is_found(tmp_path: Path) -> None:
    root = pets(tmp_path)
    assert stray_line(PETS_TASK, root, PETS_RIGHT + "None\n") == ("None", "cat: 3 pets, oldest Mia (11)")
    assert stray_line(PETS_TASK, root, PETS_RIGHT) == ("", "")
    # a line naming the data, or with a number, or one the task says, is not stray
    assert stray_line(PETS_TASK, root, PETS_RIGHT + "Mia wins\n") == ("", "")
    assert stray_line(PETS_TASK + " With no pets it prints `no pets`.", root, PETS_RIGHT + "no pets\n") == (
        "",
        "",
    )
    # with no line of the form there is nothing to be stray among (unshaped's to judge)
    assert stray_line(PETS_TASK, root, "None\n") == ("", "")
