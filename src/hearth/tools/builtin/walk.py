"""The walk glob and grep make: beneath the workspace by file descriptors, never through a link."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from hearth.tools.base import RunContext

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hearth",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
    }
)


def walk_files(fd: int, folder: Path, ctx: RunContext) -> Iterator[Path]:
    """Files under the folder open as `fd`, skipping tool and VCS folders: regular files, and
    symlinks to files inside the workspace (by name; opening one refuses, its target is found
    where it lives). Each folder is opened by a descriptor beneath its parent (O_NOFOLLOW), so a
    folder swapped for a symlink during the walk ends that branch instead of leading it outside."""
    try:
        with os.scandir(fd) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    subdirs = []
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIP_DIRS:
                    subdirs.append(e.name)
            elif e.is_file(follow_symlinks=False) or (e.is_symlink() and _file_inside(ctx, folder / e.name)):
                yield folder / e.name
        except OSError:
            continue
    for name in subdirs:
        try:
            sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        except OSError:  # gone, or swapped for a symlink: not followed
            continue
        try:
            yield from walk_files(sub, folder / name, ctx)
        finally:
            os.close(sub)


def _file_inside(ctx: RunContext, link: Path) -> bool:
    """A symlink to a file in the workspace (listed by name only; never opened through)."""
    return ctx.paths.contains(link) and os.path.isfile(link)
