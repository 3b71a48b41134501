"""Scheduled jobs and the run queue, in the workspace's session database (SQLite, WAL).

Two tables beside the sessions: `jobs` (what runs when, and whether a person approved it) and
`runs` (every piece of work the scheduler does: a job's firing, a `hearth submit`, an inbox
file, a waiting session's wake-up). A run is queued, claimed by one worker in one transaction
(so no run is started twice), then done or failed; the session it produced is recorded as soon as
it exists, so a scheduler killed mid-run resumes that session on restart.

The tables carry their own schema number in `schema_parts` (part `schedule`), so they migrate
apart from the sessions tables (whose number is `PRAGMA user_version`).
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from hearth.core.errors import HearthError, NotFound
from hearth.store.db import open_db

SCHEDULE_SCHEMA = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_parts (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    schedule TEXT NOT NULL,
    prompt TEXT NOT NULL,
    tz TEXT NOT NULL,
    missed TEXT NOT NULL DEFAULT 'skip',
    enabled INTEGER NOT NULL DEFAULT 1,
    origin TEXT NOT NULL DEFAULT 'user',
    approved TEXT,
    created TEXT NOT NULL,
    next_run TEXT,
    last_run TEXT,
    last_session TEXT,
    last_status TEXT
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    job_id TEXT,
    task TEXT NOT NULL DEFAULT '',
    run_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued',
    session TEXT,
    origin TEXT UNIQUE,
    created TEXT NOT NULL,
    started TEXT,
    ended TEXT,
    error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS runs_status_at ON runs(status, run_at);
CREATE INDEX IF NOT EXISTS runs_job ON runs(job_id, id);
"""

Missed = Literal["skip", "once"]
Origin = Literal["user", "file", "agent"]
RunKind = Literal["job", "submit", "inbox", "wake"]


@dataclass(frozen=True)
class Job:
    id: str
    schedule: str
    prompt: str
    tz: str
    missed: Missed
    enabled: bool
    origin: Origin
    approved: str | None  # the fingerprint a person approved; runs only while it matches
    created: datetime
    next_run: datetime | None
    last_run: datetime | None
    last_session: str | None
    last_status: str | None

    @property
    def fingerprint(self) -> str:
        return job_fingerprint(self.schedule, self.prompt, self.tz, self.missed)

    @property
    def is_approved(self) -> bool:
        return self.approved == self.fingerprint


@dataclass(frozen=True)
class Run:
    id: int
    kind: RunKind
    job_id: str | None
    task: str
    run_at: datetime
    status: str  # queued, running, done, failed, skipped, or a session's end status
    session: str | None
    created: datetime
    started: datetime | None
    ended: datetime | None
    error: str


def job_fingerprint(schedule: str, prompt: str, tz: str, missed: str) -> str:
    import hashlib

    return hashlib.sha256("\0".join((schedule, prompt, tz, missed)).encode()).hexdigest()[:16]


def iso(when: datetime) -> str:
    """UTC, fixed width (so the text sorts as the time does)."""
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


class ScheduleStore:
    """Jobs and runs in the database at `path` (the workspace's sessions.db)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = open_db(path)
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT version FROM schema_parts WHERE part='schedule'").fetchone()
            if row and int(row[0]) > SCHEDULE_SCHEMA:
                raise HearthError(
                    f"The jobs in {path} were written by a newer Hearth (schedule schema {row[0]}).",
                    "Upgrade Hearth, or move that file away to start fresh.",
                )
            self._db.execute(
                "INSERT OR REPLACE INTO schema_parts(part, version) VALUES ('schedule', ?)",
                (SCHEDULE_SCHEMA,),
            )
        except sqlite3.DatabaseError as exc:
            raise HearthError(
                f"Cannot open the job tables in {path}: {exc}",
                "If the file is damaged, move it away; Hearth will create a new one.",
            ) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- jobs -------------------------------------------------------------------------

    def add_job(
        self,
        job_id: str,
        schedule: str,
        prompt: str,
        tz: str,
        *,
        missed: Missed = "skip",
        origin: Origin = "user",
        next_run: datetime | None,
        now: datetime,
    ) -> Job:
        """A new job. A person's own (`user`) is approved as added; a file's or the agent's is not."""
        approved = job_fingerprint(schedule, prompt, tz, missed) if origin == "user" else None
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO jobs(id, schedule, prompt, tz, missed, origin, approved, created, next_run)"
                    " VALUES (?,?,?,?,?,?,?,?,?)",
                    (job_id, schedule, prompt, tz, missed, origin, approved, iso(now), _opt(next_run)),
                )
            except sqlite3.IntegrityError:
                raise HearthError(
                    f"There is a job named {job_id!r} already.", "Choose another name, or remove that one."
                ) from None
        return self.job(job_id)

    def replace_job(
        self, job_id: str, schedule: str, prompt: str, tz: str, missed: Missed, next_run: datetime | None
    ) -> Job:
        """Change what a job does; its approval stands only if nothing that matters changed."""
        with self._lock:
            self._db.execute(
                "UPDATE jobs SET schedule=?, prompt=?, tz=?, missed=?, next_run=? WHERE id=?",
                (schedule, prompt, tz, missed, _opt(next_run), job_id),
            )
        return self.job(job_id)

    def job(self, job_id: str) -> Job:
        jobs = self._jobs("WHERE id=?", (job_id,))
        if not jobs:
            raise NotFound(f"No job {job_id!r}.", "List them with `hearth jobs list`.")
        return jobs[0]

    def jobs(self) -> list[Job]:
        return self._jobs("", ())

    def remove_job(self, job_id: str) -> None:
        self.job(job_id)
        with self._lock:
            self._db.execute("DELETE FROM jobs WHERE id=?", (job_id,))

    def set_enabled(self, job_id: str, enabled: bool) -> Job:
        self.job(job_id)
        with self._lock:
            self._db.execute("UPDATE jobs SET enabled=? WHERE id=?", (int(enabled), job_id))
        return self.job(job_id)

    def approve(self, job_id: str) -> Job:
        job = self.job(job_id)
        with self._lock:
            self._db.execute("UPDATE jobs SET approved=? WHERE id=?", (job.fingerprint, job_id))
        return self.job(job_id)

    def set_next(self, job_id: str, next_run: datetime | None) -> None:
        with self._lock:
            self._db.execute("UPDATE jobs SET next_run=? WHERE id=?", (_opt(next_run), job_id))

    def fire(self, job: Job, run_at: datetime, next_run: datetime | None, now: datetime) -> int:
        """Queue one run of `job` and move its next run on, in one transaction: a job fires once
        per time however many schedulers look at it."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                row = cur.execute("SELECT next_run FROM jobs WHERE id=?", (job.id,)).fetchone()
                if row is None or row[0] != _opt(job.next_run):
                    cur.execute("ROLLBACK")
                    return 0  # someone else fired it, or it changed
                cur.execute("UPDATE jobs SET next_run=? WHERE id=?", (_opt(next_run), job.id))
                cur.execute(
                    "INSERT INTO runs(kind, job_id, task, run_at, created) VALUES ('job',?,?,?,?)",
                    (job.id, job.prompt, iso(run_at), iso(now)),
                )
                run_id = int(cur.lastrowid or 0)
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        return run_id

    def skip(self, job: Job, next_run: datetime | None, now: datetime) -> bool:
        """Record a missed run as skipped and move the job's next run on (once, as `fire`)."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                row = cur.execute("SELECT next_run FROM jobs WHERE id=?", (job.id,)).fetchone()
                if row is None or row[0] != _opt(job.next_run) or job.next_run is None:
                    cur.execute("ROLLBACK")
                    return False
                cur.execute("UPDATE jobs SET next_run=? WHERE id=?", (_opt(next_run), job.id))
                cur.execute(
                    "INSERT INTO runs(kind, job_id, task, run_at, status, created, ended, error)"
                    " VALUES ('job',?,?,?,'skipped',?,?,?)",
                    (
                        job.id,
                        job.prompt,
                        iso(job.next_run),
                        iso(now),
                        iso(now),
                        "missed while the scheduler was not running (policy: skip)",
                    ),
                )
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        return True

    def _jobs(self, where: str, params: tuple[object, ...]) -> list[Job]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, schedule, prompt, tz, missed, enabled, origin, approved, created, next_run,"
                f" last_run, last_session, last_status FROM jobs {where} ORDER BY id",
                params,
            ).fetchall()
        return [
            Job(
                id=r[0],
                schedule=r[1],
                prompt=r[2],
                tz=r[3],
                missed=r[4],
                enabled=bool(r[5]),
                origin=r[6],
                approved=r[7],
                created=datetime.fromisoformat(r[8]),
                next_run=_dt(r[9]),
                last_run=_dt(r[10]),
                last_session=r[11],
                last_status=r[12],
            )
            for r in rows
        ]

    # -- runs -------------------------------------------------------------------------

    def enqueue(
        self,
        kind: RunKind,
        task: str,
        run_at: datetime,
        now: datetime,
        *,
        job_id: str | None = None,
        session: str | None = None,
        origin: str | None = None,
        status: str = "queued",
    ) -> int | None:
        """Queue a run; None when one with the same `origin` (an inbox file, a wake time) exists.
        `status` running: a run another queue hands out (the distributed one), recorded here."""
        with self._lock:
            try:
                cur = self._db.execute(
                    "INSERT INTO runs(kind, job_id, task, run_at, session, origin, created, status, started)"
                    " VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        kind,
                        job_id,
                        task,
                        iso(run_at),
                        session,
                        origin,
                        iso(now),
                        status,
                        iso(now) if status == "running" else None,
                    ),
                )
            except sqlite3.IntegrityError:
                return None
        return int(cur.lastrowid or 0)

    def claim(self, now: datetime) -> Run | None:
        """The oldest due queued run, now marked running; None when nothing is due."""
        with self._lock:
            row = self._db.execute(
                "UPDATE runs SET status='running', started=? WHERE id=("
                " SELECT id FROM runs WHERE status='queued' AND run_at<=? ORDER BY run_at, id LIMIT 1)"
                " RETURNING id",
                (iso(now), iso(now)),
            ).fetchone()
        return self.run(int(row[0])) if row else None

    def set_session(self, run_id: int, session: str) -> None:
        with self._lock:
            self._db.execute("UPDATE runs SET session=? WHERE id=?", (session, run_id))

    def finish(self, run_id: int, status: str, now: datetime, error: str = "") -> None:
        """Record how a run ended, and on its job the last run and the session it produced."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.execute(
                    "UPDATE runs SET status=?, ended=?, error=? WHERE id=?", (status, iso(now), error, run_id)
                )
                cur.execute(
                    "UPDATE jobs SET last_run=(SELECT started FROM runs WHERE id=?),"
                    " last_session=(SELECT session FROM runs WHERE id=?), last_status=?"
                    " WHERE id=(SELECT job_id FROM runs WHERE id=?)",
                    (run_id, run_id, status, run_id),
                )
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def requeue_running(self) -> list[Run]:
        """Runs left `running` by a scheduler that died: queued again (their sessions resume).
        Runs the distributed queue handed out (origin `queue:`) are its workers' to resume."""
        with self._lock:
            rows = self._db.execute(
                "UPDATE runs SET status='queued' WHERE status='running'"
                " AND (origin IS NULL OR origin NOT LIKE 'queue:%') RETURNING id"
            ).fetchall()
        return [self.run(int(r[0])) for r in rows]

    def run(self, run_id: int) -> Run:
        runs = self._runs("WHERE id=?", (run_id,), 1)
        if not runs:
            raise NotFound(f"No run {run_id}.", "List runs with `hearth jobs show JOB`.")
        return runs[0]

    def runs(self, job_id: str | None = None, limit: int = 50) -> list[Run]:
        if job_id is None:
            return self._runs("", (), limit)
        return self._runs("WHERE job_id=?", (job_id,), limit)

    def queued(self) -> list[Run]:
        return self._runs("WHERE status IN ('queued','running')", (), 1000)

    def requeue(self, run_id: int) -> None:
        """Put a run that was stopped (the scheduler shut down) back in the queue, to resume."""
        with self._lock:
            self._db.execute("UPDATE runs SET status='queued' WHERE id=? AND status='running'", (run_id,))

    def waiting_sessions(self) -> list[tuple[str, datetime]]:
        """Sessions that ended with WAIT:, and the time each asked to be woken at."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, wake_at FROM sessions WHERE status='waiting' AND wake_at IS NOT NULL"
            ).fetchall()
        return [(str(r[0]), datetime.fromisoformat(r[1])) for r in rows]

    def by_origin(self, origin: str) -> Run | None:
        runs = self._runs("WHERE origin=?", (origin,), 1)
        return runs[0] if runs else None

    def has_origin(self, origin: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM runs WHERE origin=?", (origin,)).fetchone()
        return row is not None

    def _runs(self, where: str, params: tuple[object, ...], limit: int) -> list[Run]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, job_id, task, run_at, status, session, created, started, ended, error"
                f" FROM runs {where} ORDER BY id DESC LIMIT ?",
                (*params, limit),
            ).fetchall()
        return [
            Run(
                id=int(r[0]),
                kind=r[1],
                job_id=r[2],
                task=r[3],
                run_at=datetime.fromisoformat(r[4]),
                status=r[5],
                session=r[6],
                created=datetime.fromisoformat(r[7]),
                started=_dt(r[8]),
                ended=_dt(r[9]),
                error=r[10],
            )
            for r in rows
        ]


def _opt(when: datetime | None) -> str | None:
    return iso(when) if when is not None else None
