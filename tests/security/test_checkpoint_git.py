"""Hearth's own host-side git (checkpoints) never runs what a command wrote into its repository.

The repository lives in the state folder, outside the workspace; should anything still write
it, a filter driver there plus a `.gitattributes` in the tree would run on the host at the next
checkpoint. Each variant plants one, then takes a checkpoint and undoes a step for real.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hearth.core.errors import HearthError
from hearth.history.checkpoints import SHADOW_CONFIG, Checkpoints


@pytest.fixture
def fired(tmp_path: Path) -> Path:
    path = tmp_path / "fired"
    path.mkdir()
    return path


@pytest.fixture
def shadow(tmp_path: Path) -> Checkpoints:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("one\n")
    cp = Checkpoints(ws)
    cp.snapshot("first")
    return cp


def plant(cp: Checkpoints, fired: Path) -> None:
    g = cp.git_dir
    with (g / "config").open("a") as f:
        f.write(
            f'[filter "evil"]\n\tclean = touch {fired}/clean\n\tsmudge = touch {fired}/smudge\n'
            f"[core]\n\tfsmonitor = touch {fired}/fsmonitor\n\thooksPath = {g}/hooks\n"
            f'[diff "evil"]\n\ttextconv = touch {fired}/textconv\n[include]\n\tpath = {g}/more\n'
        )
    (g / "more").write_text(f"[core]\n\tpager = touch {fired}/pager\n")
    (g / "hooks").mkdir(exist_ok=True)
    for hook in ("pre-commit", "post-commit", "reference-transaction", "post-checkout"):
        (g / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {fired}/{hook}\n")
        (g / "hooks" / hook).chmod(0o755)
    (g / "info" / "attributes").write_text("* filter=evil diff=evil\n")
    (cp.workspace / ".gitattributes").write_text("* filter=evil diff=evil\n")


def test_a_planted_config_driver_and_hooks_never_run(shadow: Checkpoints, fired: Path) -> None:
    plant(shadow, fired)
    (shadow.workspace / "a.txt").write_text("two\n")
    shadow.snapshot("second")
    first = shadow.history()[-1][0]
    shadow.restore(first)
    assert (shadow.workspace / "a.txt").read_text() == "one\n"
    assert sorted(p.name for p in fired.iterdir()) == []
    assert (shadow.git_dir / "config").read_bytes() == SHADOW_CONFIG
    assert not (shadow.git_dir / "info/attributes").exists()


def test_commondir_and_alternates_are_removed(shadow: Checkpoints, fired: Path, tmp_path: Path) -> None:
    other = tmp_path / "planted"
    subprocess.run(["git", "init", "-q", "--bare", str(other)], check=True)
    (other / "config").write_text(f'[filter "evil"]\n\tclean = touch {fired}/clean\n')
    (shadow.git_dir / "commondir").write_text(str(other) + "\n")
    (shadow.git_dir / "objects/info/alternates").write_text(str(other / "objects") + "\n")
    (shadow.workspace / ".gitattributes").write_text("* filter=evil\n")
    (shadow.workspace / "b.txt").write_text("b\n")
    shadow.snapshot("third")
    assert not (shadow.git_dir / "commondir").exists()
    assert not (shadow.git_dir / "objects/info/alternates").exists()
    assert sorted(p.name for p in fired.iterdir()) == []


def test_a_repository_swapped_for_a_symlink_is_refused(
    shadow: Checkpoints, fired: Path, tmp_path: Path
) -> None:
    other = tmp_path / "planted"
    subprocess.run(["git", "init", "-q", "--bare", str(other)], check=True)
    (other / "config").write_text(f'[core]\n\tbare = true\n[filter "evil"]\n\tclean = touch {fired}/clean\n')
    before = (other / "config").read_text()
    shadow.git_dir.rename(tmp_path / "moved.git")
    shadow.git_dir.symlink_to(other)
    (shadow.workspace / ".gitattributes").write_text("* filter=evil\n")
    with pytest.raises(HearthError, match="plain folder"):
        shadow.snapshot("fourth")
    assert (other / "config").read_text() == before
    assert sorted(p.name for p in fired.iterdir()) == []


def test_a_symlinked_workspace_hearth_folder_is_never_used(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".hearth").symlink_to(elsewhere)
    cp = Checkpoints(ws)
    cp.snapshot("first")
    assert not cp.git_dir.is_relative_to(ws)
    assert list(elsewhere.iterdir()) == []


def test_a_symlinked_checkpoint_repository_is_refused(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cp = Checkpoints(ws)
    cp.git_dir.symlink_to(elsewhere)
    with pytest.raises(HearthError, match="symlink"):
        cp.snapshot("first")
    assert list(elsewhere.iterdir()) == []
