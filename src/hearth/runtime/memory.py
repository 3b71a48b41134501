"""Where each memory scope lives: the user's data folder (user scope) and `<workspace>/.hearth`
(project scope), one SQLite file each."""

from __future__ import annotations

from pathlib import Path

from hearth.memory.embed import Embedder
from hearth.memory.store import MemoryStore
from hearth.runtime.config import project_dir, user_data_path
from hearth.tools.base import Tool
from hearth.tools.builtin.memory import memory_tools

SCOPES = ("project", "user")


def memory_path(scope: str, workspace: Path) -> Path:
    if scope == "user":
        return user_data_path() / "memory.db"
    return project_dir(workspace) / "memory.db"


def open_memory(scope: str, workspace: Path, embedder: Embedder | None = None) -> MemoryStore:
    """Open a scope's store; raises MemoryUnavailable (a HearthError) for a corrupt or locked file."""
    return MemoryStore(memory_path(scope, workspace), embedder)


def project_memory_tools() -> list[Tool]:
    """memory_store and memory_search over the workspace's project scope (keyword-only: no
    embedder is wired for tools yet, and each result says so)."""
    return memory_tools(lambda ctx: open_memory("project", ctx.workspace))
