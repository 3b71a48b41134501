"""Checkpoints and undo: a shadow repository, so the user's own git history is untouched."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hearth.history.checkpoints import Checkpoints
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def test_undo_restores_files_changed_by_shell_and_tools(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "notes.txt").write_text("original\n")
    server.add(
        call("read", path="notes.txt"),  # read-only: no checkpoint
        call("shell", command="echo changed by shell > notes.txt"),
        call("write", path="new.txt", content="created"),
        ScriptedReply(text="Done. TASK_COMPLETE"),
    )
    env = {"HEARTH_LLM_URL": server.url}
    res = hearth("run", "edit notes", "-w", str(workspace), "--json", "--permission", "auto", env=env)
    assert res.code == 0
    assert (workspace / "notes.txt").read_text() == "changed by shell\n" and (workspace / "new.txt").exists()

    first = hearth("undo", "-w", str(workspace), env=env)
    assert first.code == 0, first.stderr
    assert "before step 3" in first.stdout and "new.txt" in first.stdout
    assert (
        not (workspace / "new.txt").exists() and (workspace / "notes.txt").read_text() == "changed by shell\n"
    )

    # a second undo goes one step further back (undos add up across calls), not to the same place
    second = hearth("undo", "-w", str(workspace), env=env)
    assert second.code == 0, second.stderr
    assert "before step 2" in second.stdout and "notes.txt" in second.stdout
    assert (workspace / "notes.txt").read_text() == "original\n"
    assert not (workspace / "new.txt").exists()
    third = hearth("undo", "-w", str(workspace), env=env)
    assert third.code == 1 and "No step of this session that changed files is left" in third.stderr
    # the user's own repository saw none of it
    log = subprocess.run(["git", "log", "--oneline"], cwd=workspace, capture_output=True, text=True)
    assert log.stdout == ""
    # and the model is told on the next turn
    server.add(ScriptedReply(text="Understood."))
    hearth("run", "what happened?", "-w", str(workspace), "--continue", "--json", env=env)
    assert "The user undid your last 1 step(s)" in str(server.requests[-1]["messages"])
    assert "before step 2" in str(server.requests[-1]["messages"])


def test_undo_goes_back_over_the_last_step_that_changed_files(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """A step that may change files but did not (a shell command that only looks) is passed over."""
    server.add(
        call("write", path="made.txt", content="new"),
        call("shell", command="ls"),
        call("shell", command="true"),
        ScriptedReply(text="Done. TASK_COMPLETE"),
    )
    env = {"HEARTH_LLM_URL": server.url}
    res = hearth("run", "make a file", "-w", str(workspace), "--json", "--permission", "auto", env=env)
    assert res.code == 0 and (workspace / "made.txt").exists()
    undone = hearth("undo", "-w", str(workspace), env=env)
    assert undone.code == 0, undone.stderr
    assert "before step 1" in undone.stdout and "made.txt" in undone.stdout
    assert not (workspace / "made.txt").exists()


def test_undo_without_checkpoints_says_so(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text="Nothing to do."))
    hearth("run", "hi", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    res = hearth("undo", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    assert res.code == 1 and "no checkpoints" in res.stderr


def test_a_step_that_changed_nothing_reuses_the_last_checkpoint(workspace: Path) -> None:
    points = Checkpoints(workspace)
    (workspace / "a.txt").write_text("one\n")
    first = points.snapshot("before step 1")
    assert points.snapshot("before step 2") == first  # nothing changed: no new commit
    (workspace / "a.txt").write_text("two\n")
    third = points.snapshot("before step 3")
    assert third != first
    assert [label for _, label in points.history()] == ["before step 3", "before step 1"]
    points.restore(first)
    assert (workspace / "a.txt").read_text() == "one\n"
