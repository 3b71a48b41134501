"""The agent's control files: what it may not create or change without the user.

Git hooks and config, Hearth's own config, MCP configs, editor task files: a
command that writes one of these could run code on the host later (through
`git status`, the next Hearth start, or the editor). Backends mount existing
ones read-only; this guard also catches files that did not exist before a
command ran, and puts everything back as it was.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import shutil
from pathlib import Path, PurePosixPath

CONTROL_PATTERNS = (
    ".git/hooks",
    ".git/config",
    "*/.git/hooks",
    "*/.git/config",
    ".hearth/config.toml",
    ".hearth/hooks",
    ".hearth/mcp.json",
    ".hearth/schedules.toml",
    ".hearth/skills",
    ".mcp.json",
    "mcp.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".vscode/launch.json",
    ".agent",
    ".claude",
    ".cursor",
    ".envrc",
)

Snapshot = dict[str, bytes | None]  # relative path -> file content; None marks a folder


def control_paths(workspace: Path) -> list[Path]:
    found: list[Path] = []
    for pattern in CONTROL_PATTERNS:
        found.extend(workspace.glob(pattern))
    return found


def is_control_path(rel: str) -> bool:
    """True when `rel` (relative to the workspace) is a control file or inside one."""
    parts = PurePosixPath(rel).parts
    prefixes = ("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return any(fnmatch.fnmatchcase(p, pat) for p in prefixes for pat in CONTROL_PATTERNS)


def snapshot(workspace: Path) -> Snapshot:
    snap: Snapshot = {}
    for path in control_paths(workspace):
        for item in [path, *path.rglob("*")] if path.is_dir() and not path.is_symlink() else [path]:
            rel = str(item.relative_to(workspace))
            if item.is_symlink():
                snap[rel] = b"symlink:" + os.readlink(item).encode()
            elif item.is_dir():
                snap[rel] = None
            else:
                with contextlib.suppress(OSError):
                    snap[rel] = item.read_bytes()
    return snap


def restore(workspace: Path, before: Snapshot) -> list[str]:
    """Undo changes to control files since `before`; returns what was put back."""
    after = snapshot(workspace)
    changed = sorted(k for k in set(before) | set(after) if before.get(k, ...) != after.get(k, ...))
    for rel in sorted((k for k in changed if k not in before), key=len, reverse=True):
        target = workspace / rel
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                target.unlink()
    for rel in sorted(k for k in changed if k in before):
        content, target = before[rel], workspace / rel
        if content is None:
            target.mkdir(parents=True, exist_ok=True)
        elif not content.startswith(b"symlink:"):
            if target.is_symlink() or target.is_dir():
                shutil.rmtree(target, ignore_errors=True) if target.is_dir() else target.unlink()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    return changed
