"""A workspace file the task names as what a command must print (agent/task_commands:
`reference_outputs`): read from the task's words, kept from the model's writes (agent/handsoff),
and compared line by line with what the command prints (agent/done: `first_difference`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearth.agent.done import first_difference
from hearth.agent.handsoff import hands_off, kept_files, refusal
from hearth.agent.task_commands import example_outputs, reference_outputs

TOC = (
    "Write toc.py. `python3 toc.py FILE` prints a table of contents for a Markdown file.\n"
    "- only ## and ### headings\nFor guide.md it must print exactly guide_toc.txt."
)
RUN = "python3 toc.py guide.md < /dev/null"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("toc.py", "guide.md", "guide_toc.txt", "notes.md"):
        (tmp_path / name).write_text("x\n")
    return tmp_path


@pytest.mark.parametrize(
    "task",
    [
        TOC,
        "Fix toc.py: python3 toc.py guide.md must print exactly guide_toc.txt.",
        "Fix toc.py so that python3 toc.py guide.md should output what guide_toc.txt holds.",
        "Fix toc.py: `python3 toc.py guide.md` must print the contents of guide_toc.txt",
        "`python3 toc.py FILE` lists the headings. On guide.md, toc.py should print the same as guide_toc.txt.",
    ],
)
def test_the_file_a_command_must_print_is_read_from_the_task(task: str, root: Path) -> None:
    assert reference_outputs(task, root) == [(RUN, "guide_toc.txt")]


@pytest.mark.parametrize(
    "task",
    [
        "python3 toc.py guide.md must print exactly 3 lines",  # a count, not a file
        "Write toc.py. For guide.md it must print exactly missing.txt.",  # not in the workspace
        "`python3 toc.py FILE` lists headings. For guide.md it must print exactly toc.py.",  # a script
        "Write toc.py. For guide.md it must print exactly guide_toc.txt.",  # no command to run it with
        "Summarise guide.md for notes.md",
    ],
)
def test_no_reference_where_the_task_names_none_that_can_be_run(task: str, root: Path) -> None:
    assert reference_outputs(task, root) == []


def test_a_placeholder_command_keeps_its_options_and_takes_the_given_file(root: Path) -> None:
    task = (
        "`python3 toc.py --depth 3 FILE` prints headings. For notes.md it must print exactly guide_toc.txt."
    )
    assert reference_outputs(task, root) == [
        ("python3 toc.py --depth 3 notes.md < /dev/null", "guide_toc.txt")
    ]


def test_the_expected_output_is_kept_from_the_models_writes_and_the_script_is_not(root: Path) -> None:
    kept = hands_off(TOC, root)
    assert kept.covers("guide_toc.txt") and kept.covers("./guide_toc.txt")
    assert not kept.covers("toc.py") and not kept.covers("guide.md")
    said = refusal(TOC, root, "write", "guide_toc.txt")
    assert "expected output" in said and "`python3 toc.py guide.md`" in said and "change toc.py" in said
    assert refusal(TOC, root, "write", "toc.py") == ""
    assert refusal(TOC, root, "read", "guide_toc.txt") == ""
    assert "guide_toc.txt" in kept_files(TOC, root)


def test_a_symlinked_reference_is_not_one(root: Path) -> None:
    (root / "guide_toc.txt").unlink()
    (root / "guide_toc.txt").symlink_to(root / "notes.md")
    assert reference_outputs(TOC, root) == []


@pytest.mark.parametrize(
    ("wanted", "output", "difference"),
    [
        ("- [A](#a)\n  - [B](#b)\n", "- [A](#a)\n  - [B](#b)", None),
        ("- [A](#a)\n  - [B](#b)\n", "- [A](#a)   \n  - [B](#b)\n", None),  # spaces at line ends
        ("- [A](#a)\n  - [B](#b)\n", "- [A](#a)\n  b](#-1)", (2, "  - [B](#b)", "  b](#-1)")),
        ("- [A](#a)\n  - [B](#b)\n", "- [A](#a)", (2, "  - [B](#b)", "(nothing)")),
        ("- [A](#a)\n", "- [A](#a)\n- [C](#c)", (2, "(nothing)", "- [C](#c)")),
        ("- [A](#a)\n", "(no output)", (1, "- [A](#a)", "(nothing)")),
        ("", "(no output)", None),
        ("ok\n", "ok\n[exit code 1]", None),  # the exit code is the shell tool's line, not output
    ],
)
def test_the_first_differing_line_is_named(wanted: str, output: str, difference: object) -> None:
    assert first_difference(wanted, output) == difference


DUPES = (
    "Could you write dupes.py? `python3 dupes.py FOLDER` should print one line per group of "
    "identical files under FOLDER.\n\nFor the photos folder here it should print:\n"
    "2023/dog.jpg, 2024/dog.jpg\nbeach.jpg, old/beach.jpg\n\nThanks!"
)


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    (tmp_path / "photos").mkdir()
    (tmp_path / "dupes.py").write_text("x\n")
    (tmp_path / "list.txt").write_text("x\n")
    return tmp_path


def test_the_lines_a_task_shows_for_a_given_folder_are_what_its_command_must_print(photos: Path) -> None:
    assert example_outputs(DUPES, photos) == [
        ("python3 dupes.py photos < /dev/null", "2023/dog.jpg, 2024/dog.jpg\nbeach.jpg, old/beach.jpg")
    ]
    fenced = "`python3 dupes.py DIR` groups files. On list.txt it must print:\n```\na, b\n\nc\n```\nok"
    assert example_outputs(fenced, photos) == [("python3 dupes.py list.txt < /dev/null", "a, b\n\nc")]


@pytest.mark.parametrize(
    "task",
    [
        DUPES.replace("photos folder", "pictures folder"),  # no such folder here
        DUPES.replace("`python3 dupes.py FOLDER`", "dupes.py"),  # no command to run it with
        DUPES.replace("should print:\n", "should print nothing odd.\n"),  # no lines shown
    ],
)
def test_no_example_output_where_none_can_be_run(task: str, photos: Path) -> None:
    assert example_outputs(task, photos) == []
