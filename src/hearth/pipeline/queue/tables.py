"""The pipeline's tables opened: one connection, its schema migrated, and a transaction that
only one runner at a time holds (`BEGIN IMMEDIATE`), which every compare-and-set goes through."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError, NotFound
from hearth.pipeline.queue.rows import PIPELINE_SCHEMA, PLAN_COLS, SCHEMA, PlanRow, plan_row
from hearth.store.db import open_db


class PipelineTables:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = open_db(path, foreign_keys=True)
            self._db.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise HearthError(
                f"Cannot open the pipeline tables in {path}: {exc}",
                "If the file is damaged, move it away; Hearth will create a new one.",
            ) from exc

    def _migrate(self) -> None:
        row = self._db.execute("SELECT value FROM pipeline_meta WHERE key='schema'").fetchone()
        version = int(row[0]) if row else 0
        if version > PIPELINE_SCHEMA:
            raise HearthError(
                f"The pipeline tables in {self.path} were written by a newer Hearth (schema {version}).",
                "Upgrade Hearth, or move that file away to start fresh.",
            )
        # Schema 1 is the first; later versions add their ALTERs here, oldest first.
        self._db.execute(
            "INSERT OR REPLACE INTO pipeline_meta(key, value) VALUES ('schema', ?)", (str(PIPELINE_SCHEMA),)
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Cursor]:
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, params).fetchall())

    def plan(self, plan_id: int) -> PlanRow:
        rows = self._rows(f"SELECT {PLAN_COLS} FROM pipeline_plans WHERE id=?", (plan_id,))
        if not rows:
            raise NotFound(f"No plan #{plan_id}.", "List them with `hearth pipeline status`.")
        return plan_row(rows[0])
