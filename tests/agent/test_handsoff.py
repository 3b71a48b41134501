"""Which files a task says not to change (agent/handsoff), read from the person's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearth.agent.handsoff import hands_off, refusal
from hearth.agent.task_commands import command_inputs

EXERCISE = (
    "Implement the function can_arrange in solution.py so that the tests in test_solution.py "
    "pass. Do not change the tests."
)
OPTION = (
    "Add a --where COLUMN=VALUE option to csvcol.py that keeps only the rows whose COLUMN is "
    "exactly VALUE: python3 csvcol.py --where genre=poetry books.csv title must print The Waste "
    "Land and Ariel, one a line."
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("solution.py", "test_solution.py", "csvcol.py", "books.csv", "config.json", "README.md"):
        (tmp_path / name).write_text("x\n")
    return tmp_path


@pytest.mark.parametrize(
    "task",
    [
        EXERCISE,
        "The tests in test_paging.py fail. Fix paging.py so they pass, without changing the tests.",
        "Fix stats.py (do not change the tests)",
        "Don't touch README.md or the tests.",
        "Make the tests pass; leave the test files as they are.",
    ],
)
def test_a_task_that_says_not_to_change_the_tests_keeps_every_test_file(task: str, root: Path) -> None:
    kept = hands_off(task, root)
    assert kept.tests
    assert kept.covers("test_solution.py") and kept.covers("pkg/test_x.py") and kept.covers("x_test.py")
    assert not kept.covers("solution.py")


@pytest.mark.parametrize(
    "task",
    [
        "Do not change the behaviour, the tests must still pass.",
        "Rename calc_bmi to body_mass_index everywhere (health.py and test_health.py).",
        "Add a test for --count to test_vocab.py.",
        "Fix the failing tests in test_x.py.",
    ],
)
def test_a_task_that_asks_for_tests_or_only_mentions_them_keeps_none(task: str, root: Path) -> None:
    kept = hands_off(task, root)
    assert not kept.tests and not kept.covers("test_solution.py") and not kept.covers("test_health.py")


def test_files_named_after_a_do_not_are_kept_with_their_dots(root: Path) -> None:
    kept = hands_off("Add a flag to csvcol.py; leave config.json alone. Don't edit README.md.", root)
    assert kept.covers("config.json") and kept.covers("./README.md")
    assert not kept.covers("csvcol.py") and not kept.tests


def test_the_input_a_command_of_the_task_reads_is_kept_when_named_only_there(root: Path) -> None:
    assert command_inputs(OPTION, root) == ["books.csv"]
    assert hands_off(OPTION, root).covers("books.csv")
    # named outside the command too: the task may ask to change it
    sort = "Sort books.csv by year so that python3 csvcol.py books.csv title prints them in order."
    assert command_inputs(sort, root) == []
    # the example of the input a placeholder stands for; never the script itself
    example = "Write csvcol.py: python3 csvcol.py FILE reads a CSV like books.csv and prints its rows."
    assert command_inputs(example, root) == ["books.csv"]
    # a file that is not in the workspace is nothing to keep
    assert command_inputs("python3 csvcol.py other.csv must print 3", root) == []


def test_the_refusal_names_what_to_change_instead(root: Path) -> None:
    text = refusal(EXERCISE, root, "write", "test_solution.py")
    assert "not to change the tests" in text and "solution.py" in text
    assert refusal(EXERCISE, root, "edit", "./test_solution.py")
    assert refusal(EXERCISE, root, "write", "solution.py") == ""
    assert refusal(EXERCISE, root, "read", "test_solution.py") == ""  # reading is no change
    text = refusal(OPTION, root, "write", "books.csv")
    assert "books.csv is what the task's command reads" in text and "csvcol.py" in text
    assert refusal(OPTION, root, "write", "csvcol.py") == ""


def test_a_file_named_as_the_owner_of_what_is_kept_stays_changeable(root: Path) -> None:
    """ "without changing stats.py's public functions" keeps the functions, which Hearth cannot
    judge, not the file: the fix must still be written there."""
    kept = hands_off("Fix the bug without changing stats.py's public functions.", root)
    assert not kept and not kept.covers("stats.py")
    assert hands_off("Do not edit solution.py's tests.", root).covers("test_solution.py")
    assert not hands_off("Do not edit solution.py's tests.", root).covers("solution.py")
