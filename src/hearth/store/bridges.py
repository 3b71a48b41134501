"""Which session each chat of a messaging bridge talks to, kept across restarts (SQLite, WAL).

One row per (platform, chat): `/new` in the chat forgets it, and the next message starts a new
session. The table has its own schema number in `schema_parts` (part `bridges`).
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.store.db import open_db

BRIDGES_SCHEMA = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_parts (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS bridge_chats (
    platform TEXT NOT NULL,
    chat TEXT NOT NULL,
    session TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (platform, chat)
);
"""


class ChatSessions:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = open_db(path)
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT version FROM schema_parts WHERE part='bridges'").fetchone()
            if row and int(row[0]) > BRIDGES_SCHEMA:
                raise HearthError(
                    f"The chat table in {path} was written by a newer Hearth (schema {row[0]}).",
                    "Upgrade Hearth, or move that file away to start fresh.",
                )
            self._db.execute(
                "INSERT OR REPLACE INTO schema_parts(part, version) VALUES ('bridges', ?)", (BRIDGES_SCHEMA,)
            )
        except sqlite3.DatabaseError as exc:
            raise HearthError(f"Cannot open the chat table in {path}: {exc}", "Move the file away.") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def get(self, platform: str, chat: str) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT session FROM bridge_chats WHERE platform=? AND chat=?", (platform, chat)
            ).fetchone()
        return str(row[0]) if row else None

    def set(self, platform: str, chat: str, session: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO bridge_chats(platform, chat, session, updated) VALUES (?,?,?,?)",
                (platform, chat, session, datetime.now(UTC).isoformat()),
            )

    def forget(self, platform: str, chat: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM bridge_chats WHERE platform=? AND chat=?", (platform, chat))
