"""memory_store, memory_search and log_mistake: the model's long-term memory.

The store itself (hearth.memory, both scopes) is handed in by the runtime as `open_store`, so
this layer needs only its shape. Every schema here is sent on each cold start: keep them short."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput


class _Stored(Protocol):
    id: int | None
    notices: list[str]


class _Item(Protocol):
    text: str
    kind: str

    @property
    def ref(self) -> str: ...


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
    """Remember something for later sessions (a preference: in every workspace); never secrets."""

    text: str = Field(min_length=1)
    kind: Literal["fact", "learning", "preference", "note"] = "fact"


class MemorySearchInput(ToolInput):
    """Search what earlier sessions remembered (and ingested files)."""

    query: str = Field(min_length=1)
    k: int = Field(5, ge=1, le=20)


class LogMistakeInput(ToolInput):
    """Record a mistake of yours and the rule that avoids it."""

    mistake: str = Field(min_length=1)
    cause: str = ""
    rule: str = Field(min_length=1)


def memory_tools(open_store: OpenStore) -> list[Tool]:
    def _open(ctx: RunContext) -> MemoryBackend:
        try:
            return open_store(ctx)
        except Exception as e:  # a corrupt or locked file: the session goes on without memory
            raise ToolError(f"Memory is unavailable: {e}") from e

    def _store(ctx: RunContext, text: str, kind: str, tags: list[str]) -> str:
        mem = _open(ctx)
        try:
            res = mem.store(text, kind, tags, ctx.session_id)
        except Exception as e:
            raise ToolError(f"Memory is unavailable: {e}") from e
        finally:
            mem.close()
        if res.id is None:
            raise ToolError("\n".join(res.notices or ["Not stored."]))
        return "\n".join([f"Stored memory {res.id}.", *res.notices])

    def store(args: MemoryStoreInput, ctx: RunContext) -> str:
        return _store(ctx, args.text, args.kind, [])

    def log_mistake(args: LogMistakeInput, ctx: RunContext) -> str:
        text = f"Mistake: {args.mistake.strip()}"
        if args.cause.strip():
            text += f"\nCause: {args.cause.strip()}"
        text += f"\nRule: {args.rule.strip()}"
        return _store(ctx, text, "learning", ["mistake"])

    def search(args: MemorySearchInput, ctx: RunContext) -> str:
        mem = _open(ctx)
        try:
            found = mem.search(args.query, args.k)
        except Exception as e:
            raise ToolError(f"Memory is unavailable: {e}") from e
        finally:
            mem.close()
        lines = [f"[{it.ref}] ({it.kind}) {it.text}" for it in found.items] or ["No memory matches."]
        return "\n".join([*lines, *(f"Note: {n}" for n in found.notices)])

    return [
        Tool("memory_store", MemoryStoreInput, store),
        Tool("memory_search", MemorySearchInput, search, read_only=True),
        Tool("log_mistake", LogMistakeInput, log_mistake),
    ]
