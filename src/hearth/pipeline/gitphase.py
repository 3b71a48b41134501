"""A git commit when every task of a plan's phase is done (optional; only in a git repository).

Git runs through the git tools, so in the sandbox with hooks, fsmonitor and filters off: a
repository the agent wrote cannot make Hearth run anything. Only the files the phase's tasks named
or wrote are staged, never Hearth's own folder.
"""

from __future__ import annotations

from pathlib import Path

from hearth.core.errors import ToolError
from hearth.runtime.api import (
    GitAddInput,
    GitCommitInput,
    GitLogInput,
    Runtime,
    SafePaths,
    git_add,
    git_commit,
    git_log,
    tool_context,
    workspace_paths,
)


async def commit_phase(rt: Runtime, message: str, files: list[str]) -> tuple[str, str]:
    """(short commit id, note): an empty id with the note saying why nothing was committed."""
    if not (rt.workspace / ".git").exists():
        return "", "not a git repository"
    paths = workspace_paths(rt)
    ctx = tool_context(rt)
    existing = [f for f in dict.fromkeys(files) if _exists(paths, f)]
    if not existing:
        return "", "no files to commit"
    try:
        await git_add(GitAddInput(paths=existing), ctx)
        await git_commit(GitCommitInput(message=message), ctx)
        head = await git_log(GitLogInput(n=1), ctx)
    except ToolError as exc:
        text = str(exc)
        return "", "nothing changed" if "nothing to commit" in text else f"git failed: {text}"
    return head.split(" ", 1)[0], "committed"


def _exists(paths: SafePaths, rel: str) -> bool:
    if Path(rel).parts[:1] in ((".hearth",), (".hearth-scratch",)):
        return False
    try:
        return paths.stat(paths.resolve(rel)) is not None
    except ToolError:
        return False
