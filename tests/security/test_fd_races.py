"""No check-then-act race in mkdir, write's parent folders, ls, glob, grep, read.

A thread swaps a folder inside the workspace for a symlink to a canary folder outside it and
back, thousands of times, while the real tools run (the pattern of test_06 in test_attacks.py).
Nothing may be created in the canary, and nothing from it may be listed or read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import (
    GlobInput,
    GrepInput,
    LsInput,
    MkdirInput,
    ReadInput,
    WriteInput,
    glob,
    grep,
    ls,
    mkdir,
    read,
    write,
)

MARK = "outside-" + hashlib.sha256(b"canary").hexdigest()[:8]


def digest(folder: Path) -> list[tuple[str, bytes]]:
    return sorted(
        (str(p.relative_to(folder)), p.read_bytes() if p.is_file() else b"") for p in folder.rglob("*")
    )


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    ws = tmp_path / "proj"
    (ws / "d").mkdir(parents=True)
    (ws / "d" / "inside.txt").write_text("inside\n")
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / f"{MARK}.txt").write_text(f"{MARK}\n")
    (canary / "inside.txt").write_text(f"{MARK}\n")  # the same name as the file inside
    (canary / "sub").mkdir()
    before = digest(canary)
    yield ws, canary
    assert digest(canary) == before, "something was created or changed outside the workspace"


def flipping(ws: Path, canary: Path) -> tuple[threading.Thread, threading.Event]:
    """`d` is a real folder, then a symlink to the canary, then a real folder again, in a loop."""
    stop = threading.Event()

    def run() -> None:
        d, n = ws / "d", 0
        while not stop.is_set():
            n += 1  # a fresh name each time: a tool may have made a new `d` while it was gone
            held = ws / f"held{n}"
            for step in (
                lambda held=held: d.rename(held),
                lambda: d.symlink_to(canary),
                lambda: d.unlink(),
                lambda held=held: held.rename(d),
            ):
                with contextlib.suppress(OSError):
                    step()
                time.sleep(0)  # let the tools run between any two steps

    thread = threading.Thread(target=run)
    thread.start()
    return thread, stop


def race(ws: Path, canary: Path, rounds: int, act: Callable[[RunContext, int], str | None]) -> int:
    """Runs `act` while `d` flips; returns how many calls succeeded (some must)."""
    thread, stop = flipping(ws, canary)
    ctx = RunContext(paths=SafePaths(ws))
    ok = 0
    try:
        for i in range(rounds):
            try:
                out = act(ctx, i)
            except (ToolError, OSError):
                continue
            ok += 1
            assert out is None or MARK not in out, out
    finally:
        stop.set()
        thread.join()
    return ok


def test_mkdir_with_parents_never_creates_outside(setup: tuple[Path, Path]) -> None:
    ws, canary = setup
    assert race(ws, canary, 2000, lambda ctx, i: mkdir(MkdirInput(path=f"d/new{i}/deeper"), ctx)) > 0


def test_mkdir_of_a_direct_child_never_creates_outside(setup: tuple[Path, Path]) -> None:
    ws, canary = setup
    assert race(ws, canary, 2000, lambda ctx, i: mkdir(MkdirInput(path=f"d/n{i}"), ctx)) > 0


def test_write_never_creates_parent_folders_or_files_outside(setup: tuple[Path, Path]) -> None:
    ws, canary = setup

    def act(ctx: RunContext, i: int) -> str:
        return write(WriteInput(path=f"d/p{i}/q/f.txt" if i % 2 else f"d/f{i}.txt", content="x"), ctx)

    assert race(ws, canary, 2000, act) > 0


def test_ls_never_lists_the_outside_folder(setup: tuple[Path, Path]) -> None:
    ws, canary = setup
    assert race(ws, canary, 3000, lambda ctx, i: ls(LsInput(path="d"), ctx)) > 0


def test_glob_and_grep_never_walk_outside(setup: tuple[Path, Path]) -> None:
    ws, canary = setup

    def act(ctx: RunContext, i: int) -> str:
        if i % 3 == 0:
            return glob(GlobInput(pattern="**/*.txt"), ctx)
        if i % 3 == 1:
            return grep(GrepInput(pattern="outside-|inside", path="d"), ctx)
        return grep(GrepInput(pattern="outside-|inside"), ctx)

    assert race(ws, canary, 1500, act) > 0


def test_read_through_a_flipping_folder_never_returns_outside_content(setup: tuple[Path, Path]) -> None:
    ws, canary = setup
    assert race(ws, canary, 3000, lambda ctx, i: read(ReadInput(path="d/inside.txt"), ctx)) > 0


@pytest.mark.parametrize("component", ["d", "d/sub"])
def test_a_symlinked_folder_in_a_checked_path_stops_every_fd_operation(
    setup: tuple[Path, Path], component: str
) -> None:
    """The same, without timing: the path was checked, then a folder in it became a symlink."""
    ws, canary = setup
    paths = SafePaths(ws)
    (ws / "d" / "sub").mkdir()
    checked = paths.resolve(f"{component}/x/y.txt", write=True)
    (ws / component).rename(ws / "held")
    (ws / component).symlink_to(canary if component == "d" else canary / "sub")
    with pytest.raises(ToolError, match="symlink"):
        paths.makedirs(checked.parent)
    with pytest.raises(ToolError, match="symlink"):
        paths.open(checked, os.O_WRONLY | os.O_CREAT)
    with pytest.raises(ToolError, match="symlink"):
        paths.open(checked.parent.parent, os.O_RDONLY | os.O_DIRECTORY)
    with pytest.raises(ToolError, match="symlink"):
        paths.stat(checked.parent / "z")
    st = paths.stat(checked.parent.parent)  # the link itself, not what it points to
    assert st is not None and not os.path.samestat(st, os.stat(canary))


def test_links_inside_are_listed_by_name_and_never_followed_out(setup: tuple[Path, Path]) -> None:
    ws, canary = setup
    (ws / "d" / "alias.txt").symlink_to("inside.txt")
    (ws / "d" / "out.txt").symlink_to(canary / f"{MARK}.txt")
    (ws / "d" / "outdir").symlink_to(canary)
    ctx = RunContext(paths=SafePaths(ws))
    listed = ls(LsInput(path="d"), ctx)
    assert "alias.txt -> inside.txt" in listed and f"out.txt -> {canary}" in listed
    found = glob(GlobInput(pattern="*.txt"), ctx).splitlines()
    assert found == ["d/alias.txt", "d/inside.txt"]
    assert MARK not in grep(GrepInput(pattern="outside|inside"), ctx)
    assert read(ReadInput(path="d/alias.txt"), ctx) == "1\tinside"
