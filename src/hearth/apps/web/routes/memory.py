"""What Hearth remembers, for the memory panel: list or search both scopes, forget an item.

Behind the login like every /api route. Items are sent as stored text; the page shows them as
text only (never as HTML)."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from hearth.apps.web.errors import Refused
from hearth.apps.web.state import State, WebState
from hearth.memory.store import Item
from hearth.runtime.memory_scopes import SCOPES, ScopedMemory, memory_embedder, memory_path, open_memory

router = APIRouter(prefix="/memory", tags=["memory"])

Scope = Literal["project", "user"]


class MemoryItemOut(BaseModel):
    ref: str
    id: int
    scope: str
    kind: str
    text: str
    tags: list[str]
    session: str
    created: float


class MemoryOut(BaseModel):
    items: list[MemoryItemOut]
    mode: str  # "list", or how the search ran: "hybrid" or "keyword"
    notices: list[str]


class ForgotOut(BaseModel):
    forgotten: str


@router.get("")
async def memory(state: State, q: str = "", kind: str = "", limit: int = 100) -> MemoryOut:
    """Newest first from both scopes, or (with `q`) the best matches by keywords and vectors."""
    limit = max(1, min(limit, 500))
    return await asyncio.to_thread(_memory, state, q.strip(), kind.strip(), limit)


@router.delete("/{scope}/{item_id}")
async def forget(scope: Scope, item_id: int, state: State) -> ForgotOut:
    """Delete one item: its text, index entry and vector."""
    return await asyncio.to_thread(_forget, state, scope, item_id)


def _out(item: Item) -> MemoryItemOut:
    return MemoryItemOut(
        ref=item.ref,
        id=item.id,
        scope=item.scope,
        kind=item.kind,
        text=item.text,
        tags=item.tags,
        session=item.session,
        created=item.created,
    )


def _memory(state: WebState, q: str, kind: str, limit: int) -> MemoryOut:
    ws = state.rt.workspace
    if q:
        mem = ScopedMemory(ws, memory_embedder(state.rt.settings))
        try:
            found = mem.search(q, min(limit, 50))
        finally:
            mem.close()
        hits = [i for i in found.items if not kind or i.kind == kind]
        return MemoryOut(items=[_out(i) for i in hits], mode=found.mode, notices=found.notices)
    items: list[Item] = []
    for scope in SCOPES:
        if not memory_path(scope, ws).exists():
            continue
        store = open_memory(scope, ws)
        try:
            for item in store.items(limit, kind=kind or None):
                item.scope = scope
                items.append(item)
        finally:
            store.close()
    items.sort(key=lambda i: -i.created)
    return MemoryOut(items=[_out(i) for i in items[:limit]], mode="list", notices=[])


def _forget(state: WebState, scope: str, item_id: int) -> ForgotOut:
    store = open_memory(scope, state.rt.workspace)
    try:
        if not store.forget(item_id):
            raise Refused(404, f"No item {item_id} in the {scope} scope.", "Refresh the memory list.")
    finally:
        store.close()
    return ForgotOut(forgotten=f"u{item_id}" if scope == "user" else str(item_id))
