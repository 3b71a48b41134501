"""A short listing of the workspace's files, given to a small model with its first task.

Small models guess paths they have not seen (`src/main.ts`, `project.txt`) and write there instead
of looking (bench/RESULTS.md). A few dozen names cost fewer tokens than one wrong write and its
repair. Hidden entries and the usual bulky folders are left out.
"""

from __future__ import annotations

import os
from pathlib import Path

from hearth.agent.named_files import split_present

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
