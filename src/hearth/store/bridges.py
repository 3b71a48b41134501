"""Which session each chat of a messaging bridge talks to, kept across restarts (SQLite, WAL).

One row per (platform, chat): `/new` in the chat forgets it, and the next message starts a new
session. `bridge_seen` keeps the id of every message a platform delivered (Twilio's MessageSid,
Discord's interaction id, Telegram's update_id, Green API's idMessage), so each is taken once,
also across a restart; rows older than what a replay could still pass are pruned. The tables have
their own schema number in `schema_parts` (part `bridges`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.store.db import open_db

BRIDGES_SCHEMA = 2
KEEP_SEEN = 400 * 86400.0  # seconds a delivered id is remembered (Twilio signs no time: long)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_parts (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS bridge_chats (
    platform TEXT NOT NULL,
    chat TEXT NOT NULL,
    session TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (platform, chat)
);
CREATE TABLE IF NOT EXISTS bridge_seen (
    platform TEXT NOT NULL,
    id TEXT NOT NULL,
    seen REAL NOT NULL,
    PRIMARY KEY (platform, id)
);
CREATE INDEX IF NOT EXISTS bridge_seen_age ON bridge_seen(seen);
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

    def first_time(self, platform: str, message_id: str, keep: float = KEEP_SEEN) -> bool:
        """True the first time `message_id` comes from `platform`; False for a replay (or no id).

        Recorded before the message is worked, so a crash mid-task does not run it twice either."""
        if not message_id:
            return False
        now = time.time()
        with self._lock:
            self._db.execute("DELETE FROM bridge_seen WHERE platform=? AND seen < ?", (platform, now - keep))
            cur = self._db.execute(
                "INSERT OR IGNORE INTO bridge_seen(platform, id, seen) VALUES (?,?,?)",
                (platform, message_id, now),
            )
            return cur.rowcount == 1
