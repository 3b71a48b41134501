"""memory_store and memory_search: the model's long-term memory of the workspace.

The store itself (hearth.memory) is handed in by the runtime as `open_store`, so this
layer needs only its shape."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput


class _Stored(Protocol):
    id: int | None
    notices: list[str]


class _Item(Protocol):
    id: int
    text: str
    kind: str


class _Found(Protocol):
    mode: str
    notices: list[str]

    @property
    def items(self) -> Sequence[_Item]: ...


class MemoryBackend(Protocol):
    def store(
        self, text: str, kind: str = ..., tags: list[str] | None = ..., session: str = ...
    ) -> _Stored: ...

    def search(self, query: str, k: int = ...) -> _Found: ...

    def close(self) -> None: ...


OpenStore = Callable[[RunContext], MemoryBackend]


class MemoryStoreInput(ToolInput):
    """Remember a fact for later sessions (no secrets)."""

    text: str = Field(min_length=1)
    kind: str = Field("fact", description="fact, learning, preference or note")
    tags: list[str] = Field(default_factory=list)


class MemorySearchInput(ToolInput):
    """Search remembered facts."""

    query: str = Field(min_length=1)
    k: int = Field(5, ge=1, le=20)


def memory_tools(open_store: OpenStore) -> list[Tool]:
    def _open(ctx: RunContext) -> MemoryBackend:
        try:
            return open_store(ctx)
        except Exception as e:  # a corrupt or locked file: the session goes on without memory
            raise ToolError(f"Memory is unavailable: {e}") from e

    def store(args: MemoryStoreInput, ctx: RunContext) -> str:
        mem = _open(ctx)
        try:
            res = mem.store(args.text, args.kind, args.tags, ctx.session_id)
        finally:
            mem.close()
        head = f"Stored memory {res.id}." if res.id is not None else "Not stored."
        return "\n".join([head, *res.notices])

    def search(args: MemorySearchInput, ctx: RunContext) -> str:
        mem = _open(ctx)
        try:
            found = mem.search(args.query, args.k)
        finally:
            mem.close()
        lines = [f"[{it.id}] ({it.kind}) {it.text}" for it in found.items] or ["No memory matches."]
        return "\n".join([*lines, *(f"Note: {n}" for n in found.notices)])

    return [
        Tool("memory_store", MemoryStoreInput, store),
        Tool("memory_search", MemorySearchInput, search, read_only=True),
    ]
