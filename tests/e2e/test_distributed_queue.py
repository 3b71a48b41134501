"""The run queue on a real PostgreSQL server with several `hearth worker` processes.

Two workers drain 50 jobs with no job run twice; a worker killed mid-job has its job handed to the
other, which resumes the job's session. Real PostgreSQL on 127.0.0.1, real worker processes, the
scripted model server, one shared workspace folder.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

import forkserver
from hearth.schedule.distributed import submit
from hearth.testing import postgres as pgsupport
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from requirements import need_module
from schedsupport import done, user_texts
from support import clean_env, state_of

need_module("postgres")


@pytest.fixture
def queue_url() -> Iterator[str]:
    with pgsupport.running_postgres() as url:
        yield url


@contextmanager
def worker(workspace: Path, env: dict[str, str], log: Path) -> Iterator[forkserver.Process]:
    with log.open("w") as out:
        proc = forkserver.popen(
            [
                "worker",
                "-w",
                str(workspace),
                "--concurrency",
                "2",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _runs(workspace: Path) -> list[tuple[str, str, str | None]]:
    path = state_of(workspace) / "sessions.db"
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT origin, status, session FROM runs WHERE origin LIKE 'queue:%'").fetchall()
    except sqlite3.OperationalError:
        rows = []
    db.close()
    return [(str(r[0]), str(r[1]), r[2]) for r in rows]


def _env(home: Path, server: ScriptedServer, url: str) -> dict[str, str]:
    return clean_env(
        home, HEARTH_LLM_URL=server.url, HEARTH_TOOL_MODE="native", HEARTH_RETRIES="0", HEARTH_QUEUE_URL=url
    )


def test_two_workers_drain_fifty_jobs_and_none_runs_twice(
    workspace: Path, home: Path, server: ScriptedServer, queue_url: str, tmp_path: Path
) -> None:
    env = _env(home, server, queue_url)
    server.add(*[done(f"finished {i}") for i in range(50)])
    cli = forkserver.run(
        ["submit", "job 0", "-w", str(workspace)],
        env=env,
        timeout=60,
    )
    assert cli.returncode == 0 and "Queued job" in cli.stdout, cli.stderr

    async def queue_rest() -> None:
        for i in range(1, 50):
            await submit(queue_url, f"job {i}", workspace)

    asyncio.run(queue_rest())
    logs = [tmp_path / "w1.log", tmp_path / "w2.log"]
    with ExitStack() as stack:
        for log in logs:
            stack.enter_context(worker(workspace, env, log))
        _until(lambda: sum(1 for r in _runs(workspace) if r[1] == "done") == 50, 240, "50 jobs done")
    runs = _runs(workspace)
    assert len(runs) == 50 and {r[1] for r in runs} == {"done"}
    asked = Counter(user_texts(r)[0] for r in server.requests)
    assert asked == Counter(f"job {i}" for i in range(50))  # each job's task reached the model once
    assert len({r[2] for r in runs}) == 50  # fifty sessions, one per job
    per_worker = [log.read_text().count(" done: session ") for log in logs]
    assert sum(per_worker) == 50 and min(per_worker) > 0, per_worker  # both workers took jobs
    assert server.violations == []


def test_a_killed_workers_job_is_handed_to_the_other_and_its_session_resumed(
    workspace: Path, home: Path, server: ScriptedServer, queue_url: str, tmp_path: Path
) -> None:
    env = _env(home, server, queue_url)
    slow = ScriptedReply(text="Thinking about it " * 40, chunk_size=4, delay=0.1)  # ~18 s of streaming
    server.add(slow, done("Finished by the other worker."))
    asyncio.run(submit(queue_url, "the long job", workspace))
    first, second = tmp_path / "first.log", tmp_path / "second.log"
    with worker(workspace, env, first) as one:
        _until(lambda: len(server.requests) >= 1, 60, "the first worker to start the job")
        _until(lambda: bool(_runs(workspace)) and _runs(workspace)[0][2] is not None, 30, "the session")
        (origin, status, session) = _runs(workspace)[0]
        assert status == "running"
        one.send_signal(signal.SIGKILL)  # dies mid-job, no clean-up
        one.wait(timeout=10)
    with worker(workspace, env, second):
        _until(lambda: _runs(workspace)[0][1] == "done", 90, "the other worker to finish the job")
    runs = _runs(workspace)
    assert runs == [(origin, "done", session)]  # the same run and session, not a second one
    texts = user_texts(server.requests[-1])
    assert texts[0].startswith("the long job") and "Continue the task" in texts[-1]
    log = second.read_text()
    assert "back in the queue" in log and f"resuming session {session}" in log
    assert server.violations == []


def test_a_redis_queue_url_is_refused_with_the_reason_and_what_to_use(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    env = _env(home, server, "redis://127.0.0.1:6379/0")
    cli = forkserver.run(
        ["submit", "a job", "-w", str(workspace)],
        env=env, timeout=120,
    )  # fmt: skip
    assert cli.returncode != 0
    said = cli.stdout + cli.stderr
    assert "is not a PostgreSQL URL" in said and "Redis-backed queues were measured" in said
    assert "postgresql://USER@HOST:PORT/DB" in said and "Traceback" not in said
