"""The control-file guard never follows a symlink and never touches anything outside.

Each case swaps a control folder (or file) for a symlink, hardlink, file or FIFO pointing
at `outside/` (a fake home with `.bashrc` and another repository with its `.git/config`),
runs through a real backend, and checks that `outside/` is byte-for-byte unchanged, that
the workspace's control files are back, and that the command got a report, not a crash.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from hearth.core.protocols import ExecSpec
from hearth.sandbox import guard
from hearth.sandbox.choice import BACKENDS
from security.box import ISOLATING, TEST_LIMITS, Box

_PROCESS = BACKENDS["process"](Path("/tmp"), TEST_LIMITS).available()
ALL_BACKENDS = [
    *ISOLATING,
    pytest.param("process", marks=pytest.mark.skipif(bool(_PROCESS), reason=str(_PROCESS))),
]

TASKS = b'{"version": "2.0.0", "tasks": []}\n'


def digest(folder: Path) -> dict[str, bytes]:
    """Every path under `folder` with its content (files), target (symlinks) or mark (folders)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = b"link:" + os.readlink(path).encode()
        elif path.is_dir():
            out[rel] = b"dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).digest() + oct(path.stat().st_mode).encode()
    return out


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    out = tmp_path / "outside"
    (out / "home").mkdir(parents=True)
    (out / "home/.bashrc").write_text("# the user's bashrc\n")
    (out / "home/tasks.json").write_text("outside tasks\n")
    (out / "home/settings.json").write_text("outside settings\n")
    (out / "home/config.toml").write_text("outside config\n")
    repo = out / "other"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".git/hooks/pre-commit").write_text("#!/bin/sh\necho other repository's own hook\n")
    return out


@pytest.fixture
def controls(box: Box) -> Box:
    ws = box.workspace
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / ".vscode").mkdir()
    (ws / ".vscode/tasks.json").write_bytes(TASKS)
    (ws / ".hearth").mkdir()
    (ws / ".hearth/config.toml").write_text('model = "mine"\n')
    (ws / ".claude").mkdir()
    (ws / ".claude/settings.json").write_text("{}\n")
    return box


pytestmark = pytest.mark.parametrize("box", ALL_BACKENDS, indirect=True)


def check(box: Box, outside: Path, command: str, timeout: float = 20) -> str:
    before = digest(outside)
    config = (box.workspace / ".git/config").read_bytes()
    out = box.run(command, timeout=timeout)
    assert digest(outside) == before, "the guard (or the command) changed something outside the workspace"
    ws = box.workspace
    assert (ws / ".vscode").is_dir() and not (ws / ".vscode").is_symlink()
    assert (ws / ".vscode/tasks.json").read_bytes() == TASKS
    assert (ws / ".hearth/config.toml").read_text() == 'model = "mine"\n'
    assert (ws / ".git").is_dir() and not (ws / ".git").is_symlink()
    assert (ws / ".git/config").read_bytes() == config
    assert "Traceback" not in out.output
    return out.output


def test_control_folder_swapped_for_a_symlink_outside(controls: Box, outside: Path) -> None:
    home = outside / "home"
    check(controls, outside, f"mv .vscode .vscode-old; ln -s {home} .vscode; ls .vscode")
    check(controls, outside, f"rm -rf .vscode; ln -s {home} .vscode")


def test_hearth_folder_swapped_for_a_symlink_to_a_fake_home(controls: Box, outside: Path) -> None:
    home = outside / "home"
    check(controls, outside, f"mv .hearth .hearth-old; ln -s {home} .hearth")
    check(controls, outside, f"mv .claude .claude-old; ln -s {home} .claude; ln -s {home} .cursor")
    assert not (controls.workspace / ".cursor").exists()


def test_git_and_its_hooks_swapped_for_symlinks_to_another_repository(controls: Box, outside: Path) -> None:
    other = outside / "other/.git"
    check(controls, outside, f"mv .git/hooks .git/hooks-old; ln -s {other}/hooks .git/hooks")
    check(controls, outside, f"mv .git .git-old; ln -s {other} .git")
    check(
        controls,
        outside,
        f"rm -rf .git/hooks; ln -s {other}/hooks .git/hooks; ln -s {other}/config .git/info/x",
    )
    assert (outside / "other/.git/config").exists()


def test_git_becoming_a_file_is_put_back_not_a_crash(controls: Box, outside: Path) -> None:
    out = check(controls, outside, "mv .git .git-away && echo 'gitdir: /tmp' > .git; echo still-here")
    assert "still-here" in out
    if controls.name != "bwrap":  # bwrap refuses the rename (the folder is a mount point)
        assert "moved back from .git-away" in out


def test_a_hardlink_to_a_file_outside_is_replaced_not_written_through(controls: Box, outside: Path) -> None:
    check(controls, outside, f"rm -f .vscode/tasks.json; ln {outside}/home/tasks.json .vscode/tasks.json")
    check(controls, outside, f"ln {outside}/home/settings.json .vscode/settings.json")
    assert not (controls.workspace / ".vscode/settings.json").exists()


def test_fifos_and_special_files_never_hang_the_guard(controls: Box, outside: Path) -> None:
    out = check(
        controls,
        outside,
        "mkfifo .git/info/attributes; rm -f .vscode/tasks.json; mkfifo .vscode/tasks.json; mkfifo .mcp.json; echo ok",
        timeout=10,
    )
    assert "ok" in out
    assert not (controls.workspace / ".mcp.json").exists()


def test_a_file_too_large_to_keep_is_reported_not_a_crash(controls: Box, outside: Path) -> None:
    big = controls.workspace / ".claude/big.bin"
    big.write_bytes(b"x" * (guard.CONTENT_CAP + 10))
    out = check(controls, outside, "echo y >> .claude/big.bin")
    assert big.stat().st_size == guard.CONTENT_CAP + 10 or "too large to put back" in out


def test_background_jobs_are_checked_when_they_end(controls: Box, outside: Path) -> None:
    home = outside / "home"

    async def scenario() -> str:
        runner = controls.choice.runner
        command = f"sleep 0.5; echo '{{}}' > .mcp.json; rm -rf .vscode; ln -s {home} .vscode; echo planted"
        job = await runner.start(ExecSpec(command, controls.workspace, timeout=30))
        for _ in range(100):
            if not runner.jobs()[0].running:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)
        return runner.read(job.id)

    before = digest(outside)
    out = controls.call(scenario())
    assert digest(outside) == before
    assert "planted" in out and "changes to control files were undone" in out
    assert not (controls.workspace / ".mcp.json").exists()
    assert (controls.workspace / ".vscode/tasks.json").read_bytes() == TASKS


def test_restore_reports_instead_of_raising(box: Box) -> None:
    snap = guard.snapshot(box.workspace)
    report = guard.restore(box.workspace / "missing", snap)
    assert report.errors and "missing" in report.message()
    assert guard.snapshot(box.workspace / "missing").errors


def test_deep_nesting_is_handled_without_recursion_limits(controls: Box, outside: Path) -> None:
    out = check(
        controls,
        outside,
        "d=.claude; for i in $(seq 1200); do d=$d/a; done; mkdir -p $d && echo x > $d/f; "
        "echo '{}' > .vscode/settings.json; echo made",
        timeout=60,
    )
    assert "made" in out and len(out) < 4000  # the report names what was removed, not all inside it
    assert not (controls.workspace / ".vscode/settings.json").exists()
    assert not (controls.workspace / ".claude/a").exists()


def test_symlinks_in_gits_data_never_let_the_users_git_write_outside(controls: Box, outside: Path) -> None:
    ws = controls.workspace
    env = {**os.environ, "GIT_AUTHOR_NAME": "U", "GIT_AUTHOR_EMAIL": "u@x", "GIT_COMMITTER_NAME": "U"}
    env["GIT_COMMITTER_EMAIL"] = "u@x"
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "initial"], cwd=ws, env=env, check=True)
    (outside / "victim").write_text("precious\n")
    (outside / "objects").mkdir()
    check(
        controls,
        outside,
        f"ln -sf {outside}/victim .git/logs/HEAD; ln -sf {outside}/victim .git/COMMIT_EDITMSG; "
        f"mkdir -p .git/logs/refs/heads; ln -sf {outside}/victim .git/logs/refs/heads/master; "
        f"for d in $(ls .git/objects); do :; done; ln -s {outside}/objects .git/objects/zz; "
        f"rm -rf .git/refs/tags; ln -s {outside}/home .git/refs/tags; echo planted",
    )
    before = digest(outside)
    (ws / "new.txt").write_text("user work\n")
    subprocess.run(["git", "add", "-A"], cwd=ws, env=env, check=True)
    subprocess.run(["git", "commit", "-qm", "user commit"], cwd=ws, env=env, check=True)
    subprocess.run(["git", "tag", "v1"], cwd=ws, env=env, check=True)
    assert digest(outside) == before, "the user's git wrote outside the workspace through a planted symlink"
