"""Plans a session wrote wait for a person: the pipeline works them unattended otherwise.

A plan in plans/ becomes work that runs with no one watching (`hearth pipeline run`, the
watcher). One the user wrote by hand is theirs and runs as before. One written during a Hearth
session (by the `write` tool, a shell command, a thread left running in `python`, an MCP
server) could carry whatever the model or a cloned repository wanted run, so:

- every session records the content digest of each plan file that appeared or changed while
  it ran (`PlanRecorder`, looked at by the sandbox runner after every command and tool call,
  every few seconds while a process of the session lives, and at the session's end);
- the pipeline does not register a plan whose current content a session wrote until a person
  approves that content (`hearth pipeline approve plans/x.md`); any later change to the file
  is new content, approved or not on its own.

The pipeline's own sessions (the coder's) record nothing: plans/ is put back after each coder
run (the pipeline's planguard) and a person's edits while the pipeline runs must keep working.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.config import state_dir
from hearth.store.db import open_db

log = logging.getLogger(__name__)

PLANS_DIR = "plans"
MAX_PLAN_BYTES = 1_000_000
Snapshot = dict[str, bytes]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS plan_written (digest TEXT PRIMARY KEY, path TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS plan_approved (digest TEXT PRIMARY KEY, path TEXT NOT NULL, at REAL NOT NULL);
"""


class PlanApprovals:
    """The digests of plan contents sessions wrote, and those a person approved."""

    def __init__(self, workspace: Path) -> None:
        self._db = open_db(state_dir(workspace) / "sessions.db")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        self._db.close()

    def written(self, path: str, digest: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO plan_written(digest, path, at) VALUES (?, ?, ?)",
                (digest, path, time.time()),
            )

    def approve(self, path: str, digest: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO plan_approved(digest, path, at) VALUES (?, ?, ?)",
                (digest, path, time.time()),
            )

    def waits(self, digest: str) -> bool:
        """True when a session wrote this content and no person has approved it."""
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM plan_written w WHERE w.digest=? AND NOT EXISTS "
                "(SELECT 1 FROM plan_approved a WHERE a.digest=w.digest)",
                (digest,),
            ).fetchone()
        return row is not None


def waiting_message(path: str) -> str:
    return (
        f"{path} was written during a Hearth session (by the agent or a command it ran), so the pipeline "
        f"does not work it until a person approves it: read it, then run `hearth pipeline approve {path}`."
    )


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class PlanRecorder:
    """A sandbox runner's watcher (see SandboxRunner.watchers): records each plan file that appeared
    or changed since its last look as written by this session."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.seen = snapshot(workspace)

    def __call__(self) -> None:
        now = snapshot(self.workspace)
        changed = {n: c for n, c in now.items() if self.seen.get(n) != c and not c.startswith(b"\0(")}
        self.seen = now
        if not changed:
            return
        approvals = PlanApprovals(self.workspace)
        try:
            for name, content in changed.items():
                approvals.written(f"{PLANS_DIR}/{name}", digest(content))
        finally:
            approvals.close()


def record_none(watchers: list[Callable[[], None]]) -> None:
    """Take the plan recorders out of a sandbox runner's `watchers`: for work of Hearth's own
    that runs no model's tool (the pipeline's coder runs, guarded apart; the reflection after
    `hearth run`, which would otherwise take a plan a person wrote while it asked the model for
    the session's)."""
    watchers[:] = [w for w in watchers if not isinstance(w, PlanRecorder)]


def approve_plan(workspace: Path, ref: str) -> str:
    """Approve the current content of the plan `ref` (plans/x.md, x.md or x)."""
    name = ref.removeprefix(f"{PLANS_DIR}/").removeprefix("./")
    name = name if name.endswith(".md") else name + ".md"
    if "/" in name or name.startswith("."):
        raise HearthError(
            f"{ref!r} is not a plan in {PLANS_DIR}/.", f"Name a file in {PLANS_DIR}/, e.g. add-login."
        )
    content = snapshot(workspace).get(name)
    if content is None or content.startswith(b"\0("):
        raise HearthError(
            f"There is no plan file {PLANS_DIR}/{name}.", f"List them with `ls {PLANS_DIR}`; give its name."
        )
    approvals = PlanApprovals(workspace)
    try:
        approvals.approve(f"{PLANS_DIR}/{name}", digest(content))
    finally:
        approvals.close()
    return (
        f"Approved {PLANS_DIR}/{name} as it is now ({digest(content)[:12]}); the pipeline works it. "
        "A later change to the file needs approval again if a session makes it."
    )


def snapshot(workspace: Path) -> Snapshot:
    """The regular files directly in plans/ (no symlink followed), name to content."""
    folder = workspace / PLANS_DIR
    found: Snapshot = {}
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return found
    try:
        for name in os.listdir(fd):
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_PLAN_BYTES:
                    found[name] = b"\0(not a plan file)"
                    continue
                file_fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
                with os.fdopen(file_fd, "rb") as fh:
                    found[name] = fh.read()
            except OSError:
                continue
    finally:
        os.close(fd)
    return found
