"""A short listing of the workspace's files, given to a small model with its first task.

Small models guess paths they have not seen (`src/main.ts`, `project.txt`) and write there instead
of looking (bench/RESULTS.md). A few dozen names cost fewer tokens than one wrong write and its
repair. Hidden entries and the usual bulky folders are left out.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from hearth.agent.named_files import split_present
from hearth.core.errors import ToolError
from hearth.core.events import Event, HearthMessage, UserMessage
from hearth.core.protocols import WorkspacePaths

SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build", "target"})
GIT_TOOLS = ("git_status", "git_diff", "git_add", "git_commit", "git_log")  # named in a repository
MAX_ENTRIES = 40
MAX_DEPTH = 3


def workspace_overview(root: Path, limit: int = MAX_ENTRIES) -> str:
    """One relative path a line (folders end in /), breadth-first; "" when there is nothing."""
    lines: list[str] = []
    more = 0
    level = [""]
    for _ in range(MAX_DEPTH):
        below: list[str] = []
        for rel in level:
            try:
                entries = sorted(os.scandir(root / rel), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                path = f"{rel}{entry.name}"
                is_dir = entry.is_dir(follow_symlinks=False)
                if is_dir and entry.name in SKIPPED_DIRS:
                    continue
                if len(lines) < limit:
                    lines.append(path + ("/" if is_dir else ""))
                else:
                    more += 1
                if is_dir:
                    below.append(path + "/")
        level = below
    if not lines:
        return ""  # nothing to show: "the workspace is empty" made the 1.5B answer BLOCKED
    if more:
        lines.append(f"... and {more} more")
    return "\n".join(lines)


def missing_paths(root: Path, task: str) -> list[str]:
    """The file names the task mentions that do not exist in the workspace (yet), in order."""
    return split_present(root, task)[1]


SHOWN_FILES = 3  # at most this many files the task names are shown whole with the first task
SHOWN_CHARS = 2_500  # each no longer than this (a small file: aider's whole-file format's reach)
SHOWN_LINES = 80


def named_contents(paths: WorkspacePaths, task: str) -> list[tuple[str, Path, str]]:
    """The small text files the task names that are in the workspace: (name, resolved path,
    content), for a small model's first look. Measured: shown only a listing, the 1.5B read the
    module and its test in turn and never wrote; a write before a read was refused and it
    finished. Secrets, large files and files that are not text are left to the read tool."""
    shown: list[tuple[str, Path, str]] = []
    for name in split_present(paths.root, task)[0]:
        try:
            path = paths.resolve(name)
            if paths.is_secret(path):
                continue
            fd = paths.open(path, os.O_RDONLY)
        except (OSError, ToolError):
            continue
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(SHOWN_CHARS + 1)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(data) > SHOWN_CHARS or text.count("\n") > SHOWN_LINES or "\x00" in text:
            continue
        shown.append((name, path, text))
        if len(shown) == SHOWN_FILES:
            break
    return shown


def shown_texts(history: Sequence[Event]) -> dict[str, str]:
    """The files shown whole with this turn's task (a small model's first look), by workspace
    path, with their text as it was then (before the model changed anything): what a finished
    rename or a version starts from when the model's own rewrite lost part of a file. Nothing
    from an earlier turn: the files may have changed since by the person's wish."""
    texts: dict[str, str] = {}
    for event in this_turn(history):
        if isinstance(event, HearthMessage) and event.reason == "files":
            texts.update(zip(event.shown, event.texts, strict=False))
    return texts


def this_turn(history: Sequence[Event]) -> Sequence[Event]:
    """The events from the turn's task (the last message of the person's) on."""
    start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=0)
    return history[start:]
