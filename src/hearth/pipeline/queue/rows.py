"""The pipeline queue's schema and rows: what pipeline/queue/store.py reads and writes."""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

PIPELINE_SCHEMA = 1
LEASE_SECONDS = 300.0  # a claim whose heartbeat is older than this is taken over

SCHEMA = """
CREATE TABLE IF NOT EXISTS pipeline_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pipeline_plans (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    version INTEGER NOT NULL,
    text TEXT NOT NULL,
    test_command TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new',
    reason TEXT NOT NULL DEFAULT '',
    claimed_by TEXT,
    heartbeat REAL,
    planner_tokens INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    started REAL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS pipeline_tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id INTEGER NOT NULL REFERENCES pipeline_plans(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    files TEXT NOT NULL DEFAULT '[]',
    depends TEXT NOT NULL DEFAULT '[]',
    phase INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL DEFAULT 'pending',
    stage TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    retried_at INTEGER NOT NULL DEFAULT 0,
    session TEXT,
    claimed_by TEXT,
    heartbeat REAL,
    reason TEXT NOT NULL DEFAULT '',
    feedback TEXT NOT NULL DEFAULT '',
    UNIQUE (plan_id, key)
);
CREATE INDEX IF NOT EXISTS pipeline_tasks_status ON pipeline_tasks(status, plan_id);
CREATE TABLE IF NOT EXISTS pipeline_attempts (
    task_id INTEGER NOT NULL REFERENCES pipeline_tasks(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    session TEXT NOT NULL DEFAULT '',
    runner TEXT NOT NULL DEFAULT '',
    started REAL NOT NULL,
    ended REAL,
    outcome TEXT NOT NULL DEFAULT '',
    verifier TEXT NOT NULL DEFAULT '[]',
    verdict TEXT NOT NULL DEFAULT '{}',
    tokens INTEGER NOT NULL DEFAULT 0,
    review_tokens INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (task_id, n)
);
CREATE TABLE IF NOT EXISTS pipeline_phases (
    plan_id INTEGER NOT NULL REFERENCES pipeline_plans(id) ON DELETE CASCADE,
    phase INTEGER NOT NULL,
    commit_id TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (plan_id, phase)
);
"""


@dataclass(frozen=True)
class PlanRow:
    id: int
    path: str
    name: str
    hash: str
    version: int
    text: str
    test_command: str
    status: str
    reason: str
    planner_tokens: int
    created: str
    started: float | None
    ended: float | None


@dataclass(frozen=True)
class TaskRow:
    id: int
    plan_id: int
    key: str
    title: str
    description: str
    files: tuple[str, ...]
    depends: tuple[str, ...]
    phase: int
    status: str
    stage: str
    attempts: int  # attempts made, all told (numbered from 1)
    retried_at: int  # attempts made before the last retry-failed (the limit counts from here)
    session: str | None
    claimed_by: str | None
    reason: str
    feedback: str


@dataclass(frozen=True)
class AttemptRow:
    task_id: int
    n: int
    session: str
    runner: str
    started: float
    ended: float | None
    outcome: str
    verifier: list[str]
    verdict: dict[str, Any]
    tokens: int  # the coder's and the reviewer's
    review_tokens: int


@dataclass(frozen=True)
class NewTask:
    key: str
    title: str
    description: str = ""
    files: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()
    phase: int = 1


@dataclass(frozen=True)
class CheckoutHold:
    """The plan whose branch is checked out (`branch` empty: it works on the checkout as it is),
    and the branch the workspace goes back to when the plan ends."""

    plan_id: int
    branch: str
    back: str


def runner_id() -> str:
    """Who claims: this host and process, and a token against a reused pid."""
    return f"{socket.gethostname()}:{os.getpid()}:{os.urandom(3).hex()}"


def alive(owner: str) -> bool:
    """False when the claim's process is known to be gone (it ran on this host)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.split(":", 1)[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True  # another machine's: only its lease can say
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


PLAN_COLS = "id, path, name, hash, version, text, test_command, status, reason, planner_tokens, created, started, ended"
TASK_COLS = (
    "id, plan_id, key, title, description, files, depends, phase, status, stage, attempts, retried_at, session,"
    " claimed_by, reason, feedback"
)


def plan_row(r: tuple[Any, ...]) -> PlanRow:
    return PlanRow(*r)


def task_row(r: tuple[Any, ...]) -> TaskRow:
    values = list(r)
    values[5] = tuple(json.loads(values[5]))
    values[6] = tuple(json.loads(values[6]))
    return TaskRow(*values)


def iso() -> str:
    return datetime.now(UTC).isoformat()
