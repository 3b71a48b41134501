"""Sessions as append-only event logs in SQLite (WAL).

Each event is committed as it happens, so a process killed mid-step loses at
most the step in flight. Several processes (REPL, web, one-shot) may share
one database: appends take an immediate write lock to number events.

A sub-agent's session names its parent (`parent`), so briefs and results can be audited from
either end. Schema 2 added that column; a schema-1 file is migrated when opened.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hearth.core.errors import HearthError, NotFound
from hearth.core.events import Event, Finished, Status, UserMessage, parse_event
from hearth.store.db import open_db

SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new',
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    workspace TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    wake_at TEXT,
    parent TEXT
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    ts TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE INDEX IF NOT EXISTS events_kind_ts ON events(kind, ts);
"""


@dataclass(frozen=True)
class SessionInfo:
    id: str
    title: str
    status: str
    created: str
    updated: str
    workspace: str
    model: str
    wake_at: str | None
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    parent: str | None = None  # the session that delegated this one


# The events that cost tokens: the model's replies, and Hearth's requests beside the conversation.
SPENT = "('model_reply', 'model_used')"


@dataclass(frozen=True)
class UsageTotals:
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0


def new_session_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


class SessionStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = open_db(path, foreign_keys=True)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise HearthError(
                    f"The session database {path} was written by a newer Hearth (schema {version}).",
                    "Upgrade Hearth, or move that file away to start fresh.",
                )
            self._db.executescript(_SCHEMA)
            self._migrate()
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise HearthError(
                f"Cannot open the session database {path}: {exc}",
                "If the file is damaged, move it away; Hearth will create a new one.",
            ) from exc

    def _migrate(self) -> None:
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(sessions)")}
        if "parent" not in columns:  # schema 1
            self._db.execute("ALTER TABLE sessions ADD COLUMN parent TEXT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(
        self,
        workspace: str,
        model: str,
        session_id: str | None = None,
        *,
        parent: str | None = None,
        title: str = "",
    ) -> str:
        sid = session_id or new_session_id()
        now = _iso()
        with self._lock:
            self._db.execute(
                "INSERT INTO sessions(id, created, updated, workspace, model, parent, title)"
                " VALUES (?,?,?,?,?,?,?)",
                (sid, now, now, workspace, model, parent, _title(title) if title else ""),
            )
        return sid

    def children(self, session_id: str) -> list[str]:
        """The sessions this one delegated to, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM sessions WHERE parent=? ORDER BY created, id", (session_id,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def append(self, session_id: str, event: Event) -> int:
        data = event.model_dump_json()
        ts = event.ts.isoformat()
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                row = cur.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session_id=?", (session_id,)
                ).fetchone()
                seq = int(row[0])
                cur.execute(
                    "INSERT INTO events(session_id, seq, kind, ts, data) VALUES (?,?,?,?,?)",
                    (session_id, seq, event.kind, ts, data),
                )
                self._touch(cur, session_id, event, ts)
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        return seq

    def _touch(self, cur: sqlite3.Cursor, session_id: str, event: Event, ts: str) -> None:
        if isinstance(event, UserMessage):
            cur.execute(
                "UPDATE sessions SET updated=?, status='running', wake_at=NULL, "
                "title=CASE WHEN title='' THEN ? ELSE title END WHERE id=?",
                (ts, _title(event.text), session_id),
            )
        elif isinstance(event, Finished):
            wake = event.wake_at.isoformat() if event.wake_at and event.status is Status.WAITING else None
            cur.execute(
                "UPDATE sessions SET updated=?, status=?, wake_at=? WHERE id=?",
                (ts, event.status.value, wake, session_id),
            )
        else:
            cur.execute("UPDATE sessions SET updated=? WHERE id=?", (ts, session_id))

    def events(self, session_id: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM events WHERE session_id=? ORDER BY seq", (session_id,)
            ).fetchall()
        return [parse_event(r[0]) for r in rows]

    def resolve(self, prefix: str) -> str:
        """The full id of the session that `prefix` names uniquely."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (_like_prefix(prefix),)
            ).fetchall()
        if not rows:
            raise NotFound(f"No session {prefix!r} in {self.path}.", "List them with `hearth sessions`.")
        exact = [r[0] for r in rows if r[0] == prefix]
        if exact:
            return exact[0]
        if len(rows) > 1:
            raise HearthError(
                f"{prefix!r} matches {len(rows)} sessions.", "Give more of the id (see `hearth sessions`)."
            )
        return str(rows[0][0])

    def latest(self) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT id FROM sessions ORDER BY updated DESC LIMIT 1").fetchone()
        return str(row[0]) if row else None

    def get(self, session_id: str) -> SessionInfo:
        infos = self._infos("WHERE s.id=?", (session_id,))
        if not infos:
            raise NotFound(f"No session {session_id!r}.", "List them with `hearth sessions`.")
        return infos[0]

    def list_sessions(self, limit: int = 50, *, started: bool = False) -> list[SessionInfo]:
        """Newest first; `started`: only sessions with a title (their first message), not the
        ones opened and left empty."""
        return self._infos("WHERE s.title != ''" if started else "", (), limit)

    def delete(self, session_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM events WHERE session_id=?", (session_id,))
            self._db.execute("DELETE FROM sessions WHERE id=?", (session_id,))

    def usage(self, since: datetime | None = None, session_id: str | None = None) -> UsageTotals:
        where, params = [f"kind IN {SPENT}"], []
        if since is not None:
            where.append("ts >= ?")
            params.append(since.isoformat())
        if session_id is not None:
            where.append("session_id = ?")
            params.append(session_id)
        with self._lock:
            row = self._db.execute(
                "SELECT COALESCE(SUM(json_extract(data,'$.usage.prompt_tokens')),0),"
                " COALESCE(SUM(json_extract(data,'$.usage.cached_tokens')),0),"
                " COALESCE(SUM(json_extract(data,'$.usage.completion_tokens')),0), COUNT(*)"
                f" FROM events WHERE {' AND '.join(where)}",
                params,
            ).fetchone()
        return UsageTotals(int(row[0]), int(row[1]), int(row[2]), int(row[3]))

    def usage_by_day(self, since: datetime | None = None) -> list[tuple[str, UsageTotals]]:
        """Token totals per UTC day (oldest first), for a usage chart."""
        where, params = f"kind IN {SPENT}", []
        if since is not None:
            where += " AND ts >= ?"
            params.append(since.isoformat())
        with self._lock:
            rows = self._db.execute(
                "SELECT substr(ts,1,10) AS day,"
                " COALESCE(SUM(json_extract(data,'$.usage.prompt_tokens')),0),"
                " COALESCE(SUM(json_extract(data,'$.usage.cached_tokens')),0),"
                " COALESCE(SUM(json_extract(data,'$.usage.completion_tokens')),0), COUNT(*)"
                f" FROM events WHERE {where} GROUP BY day ORDER BY day",
                params,
            ).fetchall()
        return [(r[0], UsageTotals(int(r[1]), int(r[2]), int(r[3]), int(r[4]))) for r in rows]

    def recent(self, kinds: tuple[str, ...], limit: int = 50) -> list[tuple[str, Event]]:
        """The newest events of these kinds across all sessions, newest first, with their session."""
        marks = ",".join("?" * len(kinds))
        with self._lock:
            rows = self._db.execute(
                f"SELECT session_id, data FROM events WHERE kind IN ({marks}) ORDER BY ts DESC LIMIT ?",
                (*kinds, limit),
            ).fetchall()
        return [(r[0], parse_event(r[1])) for r in rows]

    def exists(self, session_id: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM sessions WHERE id=?", (session_id,)).fetchone()
        return row is not None

    def _infos(self, where: str, params: tuple[object, ...], limit: int = 1000) -> list[SessionInfo]:
        sql = (
            "SELECT s.id, s.title, s.status, s.created, s.updated, s.workspace, s.model, s.wake_at, s.parent,"
            " COALESCE(SUM(json_extract(e.data,'$.usage.prompt_tokens')),0),"
            " COALESCE(SUM(json_extract(e.data,'$.usage.cached_tokens')),0),"
            " COALESCE(SUM(json_extract(e.data,'$.usage.completion_tokens')),0)"
            f" FROM sessions s LEFT JOIN events e ON e.session_id=s.id AND e.kind IN {SPENT}"
            f" {where} GROUP BY s.id ORDER BY s.updated DESC LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(sql, (*params, limit)).fetchall()
        return [
            SessionInfo(
                id=r[0],
                title=r[1],
                status=r[2],
                created=r[3],
                updated=r[4],
                workspace=r[5],
                model=r[6],
                wake_at=r[7],
                parent=r[8],
                prompt_tokens=int(r[9]),
                cached_tokens=int(r[10]),
                completion_tokens=int(r[11]),
            )
            for r in rows
        ]


def _iso() -> str:
    return datetime.now(UTC).isoformat()


def _title(text: str) -> str:
    line = " ".join(text.split())
    return line[:80] + ("…" if len(line) > 80 else "")


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
