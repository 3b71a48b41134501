"""Where each memory scope lives: the user's data folder (user scope) and `<workspace>/.hearth`
(project scope), one SQLite file each; and which embedder memory uses."""

from __future__ import annotations

import functools
from pathlib import Path

from hearth.memory.embed import Embedder
from hearth.memory.minilm import MiniLM, MiniLMUnavailable
from hearth.memory.store import MemoryStore
from hearth.runtime.config import project_dir, user_data_path
from hearth.tools.base import Tool
from hearth.tools.builtin.memory import memory_tools

SCOPES = ("project", "user")


def memory_path(scope: str, workspace: Path) -> Path:
    if scope == "user":
        return user_data_path() / "memory.db"
    return project_dir(workspace) / "memory.db"


@functools.cache
def embedded_embedder() -> Embedder | None:
    """The embedded MiniLM when its packages are installed, else None (keyword-only)."""
    try:
        return MiniLM()
    except MiniLMUnavailable:
        return None


def embedder_status() -> str:
    """One line for `hearth doctor`: how memory search works on this install."""
    try:
        MiniLM()
    except MiniLMUnavailable as e:
        return f"keyword-only: {e}"
    return "hybrid: keywords (FTS5) + vectors from the embedded all-MiniLM-L6-v2"


def open_memory(scope: str, workspace: Path, embedder: Embedder | None = None) -> MemoryStore:
    """Open a scope's store; raises MemoryUnavailable (a HearthError) for a corrupt or locked file."""
    return MemoryStore(memory_path(scope, workspace), embedder)


def project_memory_tools() -> list[Tool]:
    """memory_store and memory_search over the workspace's project scope, with the embedded
    embedder when installed (keyword-only otherwise, and each result says so)."""
    return memory_tools(lambda ctx: open_memory("project", ctx.workspace, embedded_embedder()))
