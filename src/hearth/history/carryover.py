"""Sessions an older Hearth kept in the workspace (`<workspace>/.hearth/sessions.db`), carried
over once into the store in the state folder, as history only.

That file sits where a sandboxed command or a cloned repository can write it, so nothing in it is
trusted: it is read only when it is a regular file (not a symlink) owned by the user, copied (the
workspace's file is never moved or changed; SQLite reads the copy, so no journal appears in the
workspace), and only its sessions and events come over (not its jobs, approvals or queue). Each
carried session gets a closing `Notice(reason="imported")`: `history.state` drops the modes and
remembered rules before it, so a resumed session starts in the configured mode with no rules.
Dates are capped at the time of the import (a file dated in the future does not become the latest
session forever), no wake-up time comes over, and an event this Hearth cannot read is left out.
The import happens once per store: the store remembers it did, with or without an old file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hearth.core.events import Notice, parse_event
from hearth.history.state import IMPORTED
from hearth.prompts import render
from hearth.sandbox.dirfd import opened
from hearth.store.db import open_db

LEGACY = Path(".hearth") / "sessions.db"
_MARK = "CREATE TABLE IF NOT EXISTS carried_over (source TEXT NOT NULL, at TEXT NOT NULL, sessions INTEGER)"


def carry_over(db_path: Path, workspace: Path) -> int:
    """Bring the workspace's old sessions into `db_path` unless this store did it before; the
    number of sessions carried over."""
    db = open_db(db_path)
    try:
        db.execute(_MARK)
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT 1 FROM carried_over").fetchone():
                db.execute("ROLLBACK")
                return 0
            count = _copy_in(db, workspace, db_path.parent)
            now = _now()
            db.execute("INSERT INTO carried_over VALUES (?,?,?)", (str(workspace / LEGACY), now, count))
            db.execute("COMMIT")
            return count
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.close()


def _copy_in(db: sqlite3.Connection, workspace: Path, scratch_parent: Path) -> int:
    with tempfile.TemporaryDirectory(dir=scratch_parent, prefix=".carry-") as scratch:
        copy = Path(scratch) / "old.db"
        if not _copy_owned(workspace, LEGACY.name, copy):
            return 0
        _copy_owned(workspace, LEGACY.name + "-wal", copy.with_name("old.db-wal"))
        try:
            sessions = _read(copy)
        except sqlite3.DatabaseError:
            return 0  # not a session database (or a damaged one): nothing to carry
    return _write(db, sessions)


def _copy_owned(workspace: Path, name: str, target: Path) -> bool:
    """Copy `.hearth/<name>` of the workspace when it is a regular file of this user's, reached
    without following a symlink at any step (a `.hearth` that is a symlink is not the workspace's)."""
    try:
        root = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        with opened(root, LEGACY.parent.as_posix()) as folder:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return False
    finally:
        os.close(root)
    with os.fdopen(fd, "rb") as src:
        info = os.fstat(src.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            return False
        with open(target, "wb") as out:
            shutil.copyfileobj(src, out)
    return True


Old = tuple[tuple[object, ...], list[object]]  # a session's row and its events' data


def _read(copy: Path) -> list[Old]:
    old = sqlite3.connect(copy)
    try:
        columns = {row[1] for row in old.execute("PRAGMA table_info(sessions)")}
        parent = "parent" if "parent" in columns else "NULL"  # schema 1 had none
        rows = old.execute(
            f"SELECT id, title, status, created, updated, workspace, model, {parent} FROM sessions"
        ).fetchall()
        return [
            (
                row,
                [
                    d
                    for (d,) in old.execute(
                        "SELECT data FROM events WHERE session_id=? ORDER BY seq", (row[0],)
                    )
                ],
            )
            for row in rows
        ]
    finally:
        old.close()


def _write(db: sqlite3.Connection, sessions: list[Old]) -> int:
    now = _now()
    count = 0
    for (sid, title, status, created, updated, ws, model, parent), events in sessions:
        if not isinstance(sid, str) or not sid:
            continue
        added = db.execute(
            "INSERT OR IGNORE INTO sessions(id, title, status, created, updated, workspace, model, parent)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (
                sid,
                _text(title),
                _text(status) or "new",
                _cap(created, now),
                _cap(updated, now),
                _text(ws),
                _text(model),
                parent if isinstance(parent, str) else None,
            ),
        )
        if added.rowcount:
            _events(db, sid, events, now)
            count += 1
    return count


def _events(db: sqlite3.Connection, sid: str, events: list[object], now: str) -> None:
    seq = 0
    for data in events:
        try:
            event = parse_event(data if isinstance(data, str | bytes) else "")
        except (ValueError, TypeError):
            continue  # forged or from a newer Hearth: not history this one can show
        seq += 1
        ts = _cap(event.ts.isoformat(), now)
        event = event.model_copy(update={"ts": datetime.fromisoformat(ts)})
        db.execute(
            "INSERT INTO events(session_id, seq, kind, ts, data) VALUES (?,?,?,?,?)",
            (sid, seq, event.kind, ts, event.model_dump_json()),
        )
    mark = Notice(reason=IMPORTED, text=render("notice_imported"))
    db.execute(
        "INSERT INTO events(session_id, seq, kind, ts, data) VALUES (?,?,?,?,?)",
        (sid, seq + 1, mark.kind, mark.ts.isoformat(), mark.model_dump_json()),
    )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _cap(value: object, now: str) -> str:
    """An ISO time no later than `now` (a missing or unreadable one becomes `now`)."""
    with contextlib.suppress(TypeError, ValueError):
        when = datetime.fromisoformat(str(value))
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if when <= datetime.fromisoformat(now):
            return str(value)
    return now


def _now() -> str:
    return datetime.now(UTC).isoformat()
