"""`hearth scheduler` as a real process: WAIT wake-ups, SIGTERM, and a kill mid-run.

Real subprocesses of the `hearth` command, a real SQLite store file, the scripted model server
on 127.0.0.1, and real time (the wait is two seconds, the poll a fraction of one).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from schedsupport import done, user_texts
from support import clean_env, state_of

HEARTH = [sys.executable, "-m", "hearth.apps.cli.main"]
POLL = 0.3


def _env(home: Path, server: ScriptedServer) -> dict[str, str]:
    return clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_TOOL_MODE="native", HEARTH_RETRIES="0")


@contextmanager
def scheduler(workspace: Path, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[str]]:
    with log.open("a", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [*HEARTH, "scheduler", "-w", str(workspace), "--poll", str(POLL)],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _sessions(workspace: Path, env: dict[str, str]) -> list[dict[str, str]]:
    import sqlite3

    db = sqlite3.connect(state_of(workspace) / "sessions.db")
    rows = db.execute("SELECT id, status, wake_at FROM sessions").fetchall()
    db.close()
    return [{"id": r[0], "status": r[1], "wake_at": r[2]} for r in rows]


def test_a_waiting_session_wakes_within_one_poll_and_sigterm_stops_cleanly(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    env = _env(home, server)
    # far enough ahead for the run and the scheduler's start on a loaded machine
    wake = (datetime.now(UTC) + timedelta(seconds=30)).replace(microsecond=0)
    server.add(ScriptedReply(text=f"WAIT: {wake.isoformat()}: the build is still running"))
    first = subprocess.run(
        [*HEARTH, "run", "check the build", "-w", str(workspace), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert first.returncode == 4, first.stderr  # waiting
    (session,) = _sessions(workspace, env)
    assert session["status"] == "waiting"
    server.add(done("The build passed."))
    log = tmp_path / "scheduler.log"
    with scheduler(workspace, env, log) as proc:
        _until(lambda: "scheduler for" in log.read_text(), 30, "the scheduler to start")
        ready = datetime.now(UTC)
        assert ready < wake, "the machine is too slow for this test's wait: the scheduler started after it"
        assert len(server.requests) == 1  # not woken early
        _until(lambda: len(server.requests) >= 2, 60, "the wake-up")
        woke = datetime.now(UTC)
        _until(lambda: _sessions(workspace, env)[0]["status"] == "done", 30, "the session to finish")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    assert wake <= woke < wake + timedelta(seconds=POLL + 1.5)  # within a poll (and the request)
    resumed = user_texts(server.requests[1])[-1]
    assert "You were waiting until" in resumed and "the build is still running" in resumed
    text = log.read_text()
    assert f"session {session['id']} wakes" in text and "scheduler stopped" in text
    assert server.violations == []


def test_a_scheduler_killed_mid_run_resumes_the_runs_session_on_restart(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    env = _env(home, server)
    slow = ScriptedReply(text="Working on it " * 40, chunk_size=4, delay=0.1)  # ~15 s of streaming
    server.add(slow, done("Finished after the restart."))
    queued = subprocess.run(
        [*HEARTH, "submit", "Write the long report.", "-w", str(workspace)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert queued.returncode == 0, queued.stderr
    log = tmp_path / "scheduler.log"
    with scheduler(workspace, env, log) as proc:
        _until(lambda: len(server.requests) >= 1, 30, "the run to start")
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)  # no clean-up at all
        proc.wait(timeout=10)
    (session,) = _sessions(workspace, env)
    assert session["status"] != "done"
    with scheduler(workspace, env, log) as proc:
        _until(lambda: _sessions(workspace, env)[0]["status"] == "done", 60, "the resumed run to finish")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    assert len(_sessions(workspace, env)) == 1  # the same session, resumed, not a new one
    resumed = server.requests[-1]
    texts = user_texts(resumed)
    assert "Write the long report." in texts[0] and "Continue the task" in texts[-1]
    assert server.violations == []
    text = log.read_text()
    assert "was cut off by a stop; it resumes" in text
    shown = subprocess.run(
        [*HEARTH, "sessions", "show", session["id"], "-w", str(workspace)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    last = json.loads(shown.stdout.splitlines()[-1])
    assert last["type"] == "done" and last["status"] == "done"
