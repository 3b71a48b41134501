"""A new file standing in for one the task names is refused; a task asking for the new file is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearth.agent.misplaced import misplaced

SYNC_TASK = (
    "sync.py always prints its `debug:` lines. Make them debug messages of the logging module "
    "(python3 sync.py --verbose notes backup)."
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "notes").mkdir()
    (tmp_path / "sync.py").write_text("print('debug: x')\n")
    return tmp_path


def test_a_new_file_of_a_named_files_name_in_another_folder_is_refused(root: Path) -> None:
    error = misplaced(SYNC_TASK, root, "write", "notes/sync.py")
    assert "notes/sync.py does not exist" in error and "Change sync.py itself" in error


@pytest.mark.parametrize(
    ("task", "name", "path"),
    [
        (SYNC_TASK, "write", "sync.py"),  # the file itself
        (SYNC_TASK, "edit", "notes/sync.py"),  # an edit of a missing file fails on its own
        (SYNC_TASK, "write", "notes/helper.py"),  # another name
        ("Copy sync.py into notes and make it quiet.", "write", "notes/sync.py"),
        ("Move sync.py to tools/ and keep it working.", "write", "tools/sync.py"),
        ("Add notes/sync.py, a version of sync.py for the notes.", "write", "notes/sync.py"),
        ("Write notes/README.md.", "write", "notes/README.md"),
    ],
)
def test_what_the_task_asks_for_or_does_not_name_may_be_written(
    root: Path, task: str, name: str, path: str
) -> None:
    assert misplaced(task, root, name, path) == ""


def test_an_existing_file_of_the_same_name_is_not_judged_here(root: Path) -> None:
    (root / "notes" / "sync.py").write_text("")
    assert misplaced(SYNC_TASK, root, "write", "notes/sync.py") == ""


def test_a_named_file_that_does_not_exist_is_not_meant(tmp_path: Path) -> None:
    assert misplaced("Write sync.py that copies a folder.", tmp_path, "write", "tools/sync.py") == ""
