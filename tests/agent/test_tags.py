"""A tag the task asks for, read from the task and judged with real git (agent/tags)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hearth.agent.tags import Tag, tag_asked, tag_command, tag_wrong

TASK = (
    "Put an annotated tag v0.2.0 with the message 'Second release' on the commit 'Add export', "
    "not on the newest commit. Do not add or change any commits."
)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.name", "T")
    git(tmp_path, "config", "user.email", "t@example.com")
    for subject in ("First", "Add export", "Fix typo"):
        (tmp_path / "notes.txt").write_text(subject + "\n")
        git(tmp_path, "add", "notes.txt")
        git(tmp_path, "commit", "-q", "-m", subject)
    return tmp_path


def judged(repo: Path, tag: Tag) -> tuple[str, str] | None:
    output = subprocess.run(["bash", "-c", tag_command(tag)], cwd=repo, capture_output=True, text=True).stdout
    return tag_wrong(tag, output)


def test_the_task_s_tag_its_commit_and_its_message_are_read() -> None:
    assert tag_asked(TASK) == Tag(
        "v0.2.0", annotated=True, message="Second release", subject="Add export", head=False
    )
    bump = "Set VERSION to 2.1.0, commit it with the message 'Release 2.1.0', and tag the new commit v2.1.0."
    assert tag_asked(bump) == Tag("v2.1.0", annotated=False, message="", subject="", head=True)
    assert tag_asked("Fix the typo in the tag line of README.md.") is None
    assert tag_asked("Add a `--tag` option to release.py.") is None


def test_each_way_a_tag_is_wrong_is_said_with_the_command_that_makes_it_right(repo: Path) -> None:
    tag = tag_asked(TASK)
    assert tag is not None
    export = git(repo, "rev-parse", "HEAD~1")
    wrong = judged(repo, tag)
    assert wrong == ("the repository has no tag v0.2.0", f"git tag -a v0.2.0 -m 'Second release' {export}")
    git(repo, "tag", "v0.2.0")  # lightweight, on the newest commit
    state, command = judged(repo, tag) or ("", "")
    assert state == f"the tag v0.2.0 is not on the commit the task says ({export[:7]})"
    assert command == f"git tag -f -a v0.2.0 -m 'Second release' {export}"
    git(repo, "tag", "-f", "v0.2.0", export)
    assert judged(repo, tag) == (
        "v0.2.0 is a lightweight tag, and the task asks for an annotated one",
        command,
    )
    git(repo, "tag", "-f", "-a", "v0.2.0", "-m", "Second", export)
    assert judged(repo, tag) == ("the tag v0.2.0's message is not 'Second release'", command)
    subprocess.run(["bash", "-c", command], cwd=repo, check=True, capture_output=True)
    assert judged(repo, tag) is None


def test_a_commit_that_is_not_there_leaves_nothing_to_judge_by(repo: Path) -> None:
    tag = Tag("v9", annotated=False, message="", subject="No such commit", head=False)
    assert judged(repo, tag) is None
