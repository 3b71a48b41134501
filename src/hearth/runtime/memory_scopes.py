"""Where each memory scope lives: the user's data folder (user scope) and the workspace's state
folder there (project scope), one SQLite file each; which embedder memory uses; and what it must never keep.

Secrets: memory refuses key-shaped strings (hearth.memory.secrets) and every value held in a file
the file tools treat as secret (the same predicate: `.env` and its variants, credential files,
keys, anything under `.ssh`, `.aws`, ...), and in secret-named environment variables of Hearth's
own process (`*_KEY`, `*_TOKEN`, `*SECRET*`, `*PASSWORD*`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hearth.core import environment
from hearth.llm.urls import normalize_base_url
from hearth.memory.embed import Embedder, EmbedError, ServerEmbedder
from hearth.memory.minilm import MiniLM, MiniLMUnavailable, embedded_embedder
from hearth.memory.secrets import SecretValues, assigned_values
from hearth.memory.store import Found, Item, MemoryStore, Stored, fuse
from hearth.prompts import render
from hearth.runtime.config import Settings, state_dir, user_data_path
from hearth.sandbox.secrets import secret_index
from hearth.tools.base import Tool
from hearth.tools.builtin.memory import memory_tools

SCOPES = ("project", "user")
USER_KINDS = ("preference",)  # about the person, not the project: kept for every workspace
MAX_SECRET_FILE = 256 * 1024  # bytes read from one secret file for its values
_SECRET_ENV = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)(_|$)|SECRET|PASSWORD", re.I)


def memory_path(scope: str, workspace: Path) -> Path:
    if scope == "user":
        return user_data_path() / "memory.db"
    return state_dir(workspace) / "memory.db"


def memory_embedder(settings: Settings | None = None) -> Embedder | None:
    """Who embeds memory: the `embedder` role's model on its server (or the main server) when the
    roles table names one, else the embedded MiniLM, else None (keyword-only). A server that fails
    or answers with the wrong dimension makes search keyword-only, with a notice (see the store)."""
    role = settings.model.roles.get("embedder") if settings is not None else None
    if settings is not None and role is not None and (role.server or settings.model.url):
        key = role.api_key if role.server else settings.model.api_key
        return ServerEmbedder(
            normalize_base_url(role.server or settings.model.url),
            role.model or settings.model.name,
            key.get_secret_value(),
        )
    return embedded_embedder()


def embedder_status(settings: Settings | None = None) -> str:
    """One line for `hearth doctor`: how memory search works on this install (asks the embedder
    role's server once, when there is one)."""
    chosen = memory_embedder(settings)
    if isinstance(chosen, ServerEmbedder):
        try:
            dim = len(chosen.embed(["hearth doctor"])[0])
        except EmbedError as e:
            return f"keyword-only: the embedder role's server failed ({e})"
        return f"hybrid: keywords (FTS5) + vectors ({dim} dimensions) from the embedder role, {chosen.name}"
    try:
        MiniLM()
    except MiniLMUnavailable as e:
        return f"keyword-only: {e}"
    return "hybrid: keywords (FTS5) + vectors from the embedded all-MiniLM-L6-v2"


def _secret_files(workspace: Path) -> Iterator[Path]:
    root = Path(os.path.realpath(workspace))
    inventory = secret_index(root).scan()
    for rel in inventory.files:
        yield root / rel
    for rel in inventory.dirs:
        for dirpath, _dirs, files in os.walk(root / rel):  # follows no symlink to a folder
            yield from (Path(dirpath) / f for f in files)


def secret_values(workspace: Path) -> SecretValues:
    """The values memory must refuse for this workspace (read fresh: a `.env` may have changed)."""
    values: list[str] = []
    for path in _secret_files(workspace):
        try:
            if path.is_symlink() or not path.is_file():
                continue
            with path.open("rb") as f:
                content = f.read(MAX_SECRET_FILE).decode("utf-8", errors="replace")
        except OSError:
            continue
        values.extend(assigned_values(content))
    values.extend(environment.values_named(_SECRET_ENV))
    return SecretValues(values)


def open_memory(scope: str, workspace: Path, embedder: Embedder | None = None) -> MemoryStore:
    """Open a scope's store; raises MemoryUnavailable (a HearthError) for a corrupt or locked file.
    A project file Hearth creates here is stamped as its own (see `made_here`)."""
    path = memory_path(scope, workspace)
    new = not path.exists()
    store = MemoryStore(path, embedder, secret_values(workspace))
    if new and scope == "project":
        _stamp(store)
    return store


# The project memory lives in the state folder, outside the workspace; should its file still come
# from elsewhere (copied in, an older layout), its items would be instructions nobody here wrote. Hearth stamps each file it creates with a
# random token and keeps the token in the user's data folder; a file without a matching stamp is
# only read when asked (memory_search), never offered unasked.
def _owners_path() -> Path:
    return user_data_path() / "memory_owners.json"


def _owners() -> dict[str, str]:
    try:
        data = json.loads(_owners_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _stamp(store: MemoryStore) -> None:
    token = secrets.token_hex(16)
    owners = _owners()
    owners[os.path.realpath(store.path)] = token
    path = _owners_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(owners, indent=1), encoding="utf-8")
    os.replace(tmp, path)
    store.set_meta("owner", token)


def made_here(store: MemoryStore) -> bool:
    """Whether Hearth created this memory file on this machine for this user."""
    token = store.meta("owner")
    return token is not None and _owners().get(os.path.realpath(store.path)) == token


def has_memory(workspace: Path) -> bool:
    """Whether either scope holds an item (nothing is created, and no model loaded, to find none)."""
    for scope in SCOPES:
        path = memory_path(scope, workspace)
        if not path.exists():
            continue
        try:
            with contextlib.closing(
                sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
            ) as db:
                if db.execute("SELECT 1 FROM items LIMIT 1").fetchone():
                    return True
        except sqlite3.Error:
            return True  # unreadable: let opening it report why (the offer is then left out)
    return False


@dataclass
class ScopedMemory:
    """Both scopes as one: a preference goes to the user's store, anything else to the project's;
    search looks in both and fuses the two rankings by RRF."""

    workspace: Path
    embedder: Embedder | None = None
    _open: dict[str, MemoryStore] = field(default_factory=dict)

    def scope(self, scope: str) -> MemoryStore:
        if scope not in self._open:
            self._open[scope] = open_memory(scope, self.workspace, self.embedder)
        return self._open[scope]

    def store(
        self, text: str, kind: str = "fact", tags: list[str] | None = None, session: str = ""
    ) -> Stored:
        return self.scope("user" if kind in USER_KINDS else "project").store(text, kind, tags, session)

    def _existing(self) -> list[str]:
        """The scopes to read: those with a file (reading creates none)."""
        return [s for s in SCOPES if s in self._open or memory_path(s, self.workspace).exists()]

    def search(self, query: str, k: int = 5) -> Found:
        found = {s: self.scope(s).search(query, k) for s in self._existing()}
        if not found:
            return Found([], "keyword", [])
        return fuse(found, k)

    def relevant(self, query: str, k: int = 5) -> list[Item]:
        """Items to offer unasked: from the user's store, and from the project's when Hearth
        made that file here (one that came with the workspace is read only when asked)."""
        found = {
            s: Found(self.scope(s).relevant(query, k), "")
            for s in self._existing()
            if s == "user" or made_here(self.scope(s))
        }
        return fuse(found, k).items

    def close(self) -> None:
        for mem in self._open.values():
            mem.close()
        self._open.clear()


def session_memory_tools(settings: Settings | None = None) -> list[Tool]:
    """memory_store, memory_search and log_mistake over both scopes, embedded as `memory_embedder`
    says (keyword-only when nothing embeds, and each result says so)."""
    return memory_tools(lambda ctx: ScopedMemory(ctx.workspace, memory_embedder(settings)))


CHARS_PER_TOKEN = 4  # the estimate used for the offer's cap (no tokenizer at hand)


def offer_memories(
    workspace: Path, task: str, shown: str, max_tokens: int, embedder: Embedder | None = None
) -> str | None:
    """What memory holds that bears on `task`, as one message within `max_tokens`, leaving out
    items already in `shown` (earlier offers in the session); None when nothing fits or there is
    no memory. A memory that cannot be opened is left out: the task goes on without it."""
    if max_tokens <= 0 or not task.strip() or not has_memory(workspace):
        return None
    mem = ScopedMemory(workspace, embedder)
    try:
        items = mem.relevant(task, k=10)
    except Exception:  # corrupt, locked, or an embedder failure: no offer, no crash
        return None
    finally:
        mem.close()
    budget = max_tokens * CHARS_PER_TOKEN - len(render("memories_offer", items=""))
    lines: list[str] = []
    for item in items:
        if item.kind == "chunk":  # ingested code and documents: found by memory_search when wanted
            continue
        flat = " ".join(item.text.split())
        if flat in shown:
            continue
        line = f"- [{item.ref}] ({item.kind}) {flat}"
        if len(line) > budget:
            if lines or budget < 80:
                break
            line = line[: budget - 1] + "…"  # one long item is cut rather than dropped
        lines.append(line)
        budget -= len(line) + 1
    return render("memories_offer", items="\n".join(lines)) if lines else None
