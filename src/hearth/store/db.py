"""Opening the workspace's SQLite file the way every store shares it: one connection per store,
usable from any thread (each store holds its own lock), autocommit, WAL so readers never wait."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def open_db(path: Path, *, foreign_keys: bool = False) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, check_same_thread=False, timeout=30, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    if foreign_keys:
        db.execute("PRAGMA foreign_keys=ON")
    return db
