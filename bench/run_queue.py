"""The run queue: overhead per job (submit to start) and throughput with 1, 2 and 4 workers.

Embedded default: the workspace's SQLite queue worked by one `Scheduler` in this process, with
`parallel` runs at once. Engine: PostgreSQL through procrastinate (a real server started on
127.0.0.1), worked by that many `hearth worker` processes (one job at a time each). Every job is
a real headless session against the scripted model server, which holds each answer `--latency`
seconds (a model's time), so the runs are I/O-bound as real ones are.

Goal: throughput near-linear to 4 workers.

    .venv/bin/python bench/run_queue.py [--jobs 200] [--latency 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from hearth.runtime.config import load_settings, state_key
from hearth.runtime.session import open_runtime
from hearth.schedule.distributed import submit
from hearth.schedule.scheduler import Scheduler, SchedulerOptions
from hearth.schedule.store import ScheduleStore
from hearth.testing import postgres
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer


def _reply() -> ScriptedReply:
    return ScriptedReply(text="Done.\nTASK_COMPLETE", chunk_size=100)


def _env(home: Path, server: ScriptedServer, url: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"),
        HEARTH_LLM_URL=server.url,
        HEARTH_TOOL_MODE="native",
        HEARTH_RETRIES="0",
    )
    if url:
        env["HEARTH_QUEUE_URL"] = url
    return env


async def embedded(jobs: int, parallel: int, latency: float, poll: float, root: Path) -> tuple[float, float]:
    """(median submit-to-start seconds of a job put in the idle queue, jobs per second)."""
    workspace = root / f"embedded-{parallel}"
    workspace.mkdir()
    home = root / "home"
    home.mkdir(exist_ok=True)
    os.environ.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share")
    )
    with ScriptedServer([_reply() for _ in range(jobs + 5)], request_delay=latency) as server:
        flags = {"workspace": workspace, "llm_url": server.url, "tool_mode": "native", "retries": 0}
        settings = load_settings(flags, environ={}, cwd=workspace, user_file=home / "none.toml").settings
        rt = await open_runtime(settings)
        sched = Scheduler(rt, SchedulerOptions(poll=poll, parallel=parallel, tz="UTC"))
        stop = asyncio.Event()
        await sched.start()
        loop = asyncio.ensure_future(sched.loop(stop))
        store = ScheduleStore(rt.store.path)
        begun = time.monotonic()
        for i in range(jobs):
            now = datetime.now(UTC)
            store.enqueue("submit", f"job {i}", now, now)
        while sum(1 for r in store.runs(limit=jobs) if r.status == "done") < jobs:
            await asyncio.sleep(0.05)
        took = time.monotonic() - begun
        waits = []
        for i in range(5):  # one job into the idle queue, as `hearth submit` puts it there
            await asyncio.sleep(poll * 0.37 * (i + 1) % poll)  # at different points of the poll
            now = datetime.now(UTC)
            run_id = store.enqueue("submit", f"single {i}", now, now)
            assert run_id is not None
            while store.run(run_id).started is None:
                await asyncio.sleep(0.005)
            started = store.run(run_id).started
            assert started is not None
            waits.append((started - now).total_seconds())
            while store.run(run_id).status in ("queued", "running"):
                await asyncio.sleep(0.01)
        stop.set()
        await loop
        await sched.close()
        store.close()
        await rt.aclose()
    return sorted(waits)[len(waits) // 2], jobs / took


def engine(url: str, jobs: int, workers: int, latency: float, root: Path) -> tuple[float, float]:
    """(median submit-to-start seconds, jobs per second) with `workers` worker processes."""
    workspace = root / f"engine-{workers}"
    workspace.mkdir()
    home = root / "home"
    home.mkdir(exist_ok=True)
    with ScriptedServer([_reply() for _ in range(jobs + 5)], request_delay=latency) as server:
        env = _env(home, server, url)
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "hearth.apps.cli.main",
                    "worker",
                    "-w",
                    str(workspace),
                    "--concurrency",
                    "1",
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(workers)
        ]
        time.sleep(6)  # let every worker open its runtime and start listening

        async def queue_all() -> None:
            for i in range(jobs):
                await submit(url, f"job {i}", workspace)

        begun = time.monotonic()
        asyncio.run(queue_all())
        db = home / ".local/share/hearth/workspaces" / state_key(workspace) / "sessions.db"
        while True:
            if db.exists():
                con = sqlite3.connect(db)
                done = con.execute("SELECT COUNT(*) FROM runs WHERE status='done'").fetchone()[0]
                con.close()
                if done >= jobs:
                    break
            time.sleep(0.1)
        took = time.monotonic() - begun
        waits = []
        for i in range(5):  # one job into the idle queue: submit to the worker's start of it

            async def one(i: int = i) -> datetime:
                sent = datetime.now(UTC)
                await submit(url, f"single {i}", workspace)
                return sent

            sent = asyncio.run(one())
            while True:
                con = sqlite3.connect(db)
                row = con.execute(
                    "SELECT created, status FROM runs WHERE task=?", (f"single {i}",)
                ).fetchone()
                con.close()
                if row and row[1] == "done":
                    break
                time.sleep(0.01)
            waits.append((datetime.fromisoformat(row[0]) - sent).total_seconds())
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=60)
    return sorted(waits)[len(waits) // 2], jobs / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the model holds each answer")
    parser.add_argument("--poll", type=float, default=1.0, help="the embedded scheduler's poll interval")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="hearth-queue-bench-"))
    print(f"{args.jobs} jobs, model latency {args.latency}s each; embedded poll {args.poll}s")
    print(f"{'queue':<10} {'workers':>7} {'submit→start s':>15} {'jobs/s':>8} {'speed-up':>9}")
    base = 0.0
    for n in (1, 2, 4):
        wait, rate = asyncio.run(embedded(args.jobs, n, args.latency, args.poll, root))
        base = base or rate
        print(f"{'embedded':<10} {n:>7} {wait:>15.3f} {rate:>8.2f} {rate / base:>8.2f}x", flush=True)
    with postgres.running_postgres() as url:
        base = 0.0
        for n in (1, 2, 4):
            wait, rate = engine(url, args.jobs, n, args.latency, root)
            base = base or rate
            print(f"{'postgres':<10} {n:>7} {wait:>15.3f} {rate:>8.2f} {rate / base:>8.2f}x", flush=True)


if __name__ == "__main__":
    main()
