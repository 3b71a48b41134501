"""The queue engine for `queue_url`, chosen by measurement: PostgreSQL (procrastinate) against
two Redis-backed queues (RQ and huey), on the work Hearth queues: long runs that wait on a model.

Each engine runs on a real server started here on 127.0.0.1 (Debian's `postgresql` and
`redis-server`), with worker processes from bench/queue_engine_worker.py, one job at a time each;
every job is the same body (a start line, a wait, an end line). Measured per engine:

- submit→start: the median of 5 jobs put one by one into an idle queue (one worker);
- throughput: `--jobs` jobs of `--seconds` each with 1, 2 and 4 workers (jobs/s, speed-up),
  and how many jobs started more than once;
- handoff: two workers; a `--long`-second job starts on one, and that whole worker is killed
  (SIGKILL to its process group, as a machine that dies). The time until the other worker
  starts the job, or "lost" when it has not within `--wait` seconds.

    .venv/bin/python bench/queue_engines.py [--jobs 200] [--seconds 0.5] [--long 60] [--wait 180]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any

from hearth.testing import postgres, redis_server

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import queue_engine_worker as jobs  # noqa: E402

ENGINES = ("procrastinate", "rq", "huey")


class Engine:
    """Submitting jobs to one engine, and its workers."""

    def __init__(self, name: str, url: str, log: Path, startup: float = 4.0) -> None:
        self.name, self.url, self.log, self.startup = name, url, log, startup
        self.workers: list[subprocess.Popen[bytes]] = []
        self._submit = self._submitter()

    def _submitter(self) -> Callable[[str, float], None]:
        if self.name == "rq":
            from redis import Redis
            from rq import Queue, Retry

            queue = Queue(jobs.QUEUE, connection=Redis.from_url(self.url))

            def enqueue(key: str, seconds: float) -> None:
                # a run may last an hour; a dead worker's job is retried (up to 3 times)
                queue.enqueue(
                    "queue_engine_worker.agent_run",
                    key,
                    seconds,
                    str(self.log),
                    job_timeout=3600,
                    retry=Retry(max=3),
                    result_ttl=60,
                )

            return enqueue
        if self.name == "huey":
            _huey, task = jobs.huey_app(self.url)
            return lambda key, seconds: task(key, seconds, str(self.log)) and None
        app = jobs.procrastinate_app(self.url)
        from hearth.schedule.distributed import ensure_schema

        asyncio.run(ensure_schema(app))

        def defer(key: str, seconds: float) -> None:
            async def go() -> None:
                async with app.open_async():
                    await app.configure_task(jobs.PROCRASTINATE_TASK).defer_async(
                        key=key, seconds=seconds, log=str(self.log)
                    )

            asyncio.run(go())

        return defer

    def submit(self, key: str, seconds: float) -> float:
        sent = time.time()
        self._submit(key, seconds)
        return sent

    def start_workers(self, n: int) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path[1:]])}
        for _ in range(n):
            self.workers.append(
                subprocess.Popen(
                    [sys.executable, str(HERE / "queue_engine_worker.py"), self.name, self.url],
                    env={**env, "QUEUE_BENCH_WORKER": str(len(self.workers))},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        time.sleep(self.startup)  # let each worker connect and start listening

    def kill(self, index: int) -> None:
        """The worker and every process under it (RQ's work horse has a session of its own)."""
        proc = self.workers[index]
        for pid in [proc.pid, *descendants(proc.pid)]:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def stop_workers(self) -> None:
        """Asked to stop (SIGTERM), idle as they are; killed if one has not within 15 s."""
        for proc in self.workers:
            if proc.poll() is None:
                proc.terminate()
        for index, proc in enumerate(self.workers):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill(index)
        self.workers = []


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def lines(log: Path) -> list[tuple[str, str, int, float]]:
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        what, key, group, at = line.split()
        out.append((what, key, int(group), float(at)))
    return out


def ended_keys(log: Path, prefix: str) -> set[str]:
    return {k for what, k, _g, _a in lines(log) if what == "end" and k.startswith(prefix)}


def wait_for(check: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    return None


def overhead(engine: Engine) -> float:
    engine.start_workers(1)
    waits = []
    for i in range(5):
        key = f"single-{i}"
        sent = engine.submit(key, 0.0)
        ended = wait_for(partial(ended_keys, engine.log, key), 60)
        begun = [at for what, kk, _g, at in lines(engine.log) if what == "start" and kk == key]
        assert ended and begun, f"{engine.name}: job {key} never ran"
        waits.append(begun[0] - sent)
        time.sleep(0.37 * (i + 1) % 1.0)  # submitted at different points of any poll
    engine.stop_workers()
    return sorted(waits)[len(waits) // 2]


def throughput(engine: Engine, n_jobs: int, seconds: float, workers: int) -> tuple[float, int]:
    """(jobs per second, jobs started more than once)."""
    tag = f"w{workers}"
    engine.start_workers(workers)
    begun = time.time()
    for i in range(n_jobs):
        engine.submit(f"{tag}-{i}", seconds)

    done = wait_for(lambda: len(ended_keys(engine.log, tag + "-")) >= n_jobs, 60 + n_jobs * seconds * 3)
    took = time.time() - begun
    starts = Counter(
        k for what, k, _g, _a in lines(engine.log) if what == "start" and k.startswith(tag + "-")
    )
    engine.stop_workers()
    assert done, f"{engine.name}: {len(ended_keys(engine.log, tag + '-'))} of {n_jobs} jobs ended"
    return n_jobs / took, sum(1 for n in starts.values() if n > 1)


def handoff(engine: Engine, long: float, wait: float) -> float | None:
    """Seconds from killing the worker that runs a long job to its start on the other worker."""
    engine.start_workers(2)
    key = "long"
    engine.submit(key, long)
    first = wait_for(lambda: [g for what, k, g, _a in lines(engine.log) if what == "start" and k == key], 60)
    assert first, f"{engine.name}: the long job never started"
    time.sleep(2)
    killed_at = time.time()
    engine.kill(first[0])
    again = wait_for(
        lambda: [a for what, k, g, a in lines(engine.log) if what == "start" and k == key and g != first[0]],
        wait,
    )
    for index in range(len(engine.workers)):  # the other one is busy with the long job: no grace
        engine.kill(index)
    engine.workers = []
    return again[0] - killed_at if again else None


@contextmanager
def server(name: str) -> Iterator[str]:
    with postgres.running_postgres() if name == "procrastinate" else redis_server.running_redis() as url:
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=0.5, help="each job's wait (a model's time)")
    parser.add_argument("--long", type=float, default=60.0, help="the killed job's length")
    parser.add_argument("--wait", type=float, default=180.0, help="how long to wait for a handoff")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--no-handoff", action="store_true")
    parser.add_argument("--startup", type=float, default=4.0, help="seconds given workers to start")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="hearth-engines-"))
    print(f"{args.jobs} jobs of {args.seconds}s; handoff: a {args.long:.0f}s job, its worker killed")
    print(f"{'engine':<14} {'submit→start s':>15} {'1 w jobs/s':>11} {'2 w':>6} {'4 w':>6} "
          f"{'4 w speed-up':>13} {'run twice':>10} {'handoff s':>10}")  # fmt: skip
    results: dict[str, dict[str, Any]] = {}
    for name in args.engines.split(","):
        with ExitStack() as stack:
            url = stack.enter_context(server(name))
            engine = Engine(name, url, root / f"{name}.log", args.startup)
            stack.callback(engine.stop_workers)
            wait = overhead(engine)
            rates, twice = [], 0
            for n in (1, 2, 4):
                rate, dup = throughput(engine, args.jobs, args.seconds, n)
                rates.append(rate)
                twice += dup
            moved = None if args.no_handoff else handoff(engine, args.long, args.wait)
            shown = "-" if args.no_handoff else ("lost" if moved is None else f"{moved:.1f}")
            print(f"{name:<14} {wait:>15.3f} {rates[0]:>11.2f} {rates[1]:>6.2f} {rates[2]:>6.2f} "
                  f"{rates[2] / rates[0]:>12.2f}x {twice:>10} {shown:>10}", flush=True)  # fmt: skip
            results[name] = {
                "submit_to_start": wait,
                "jobs_per_second": dict(zip(("1", "2", "4"), rates, strict=True)),
                "run_twice": twice,
                "handoff_seconds": moved,
                "handoff_measured": not args.no_handoff,
            }
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
