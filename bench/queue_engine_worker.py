"""Workers for bench/queue_engines.py: one job body, three engines, each set up for long runs.

    python bench/queue_engine_worker.py ENGINE URL

The job stands for an agent run: it says when it starts and in which worker (QUEUE_BENCH_WORKER,
set by the bench for each worker process), waits `seconds` (a run waits on the model), and says
when it ends, each as one line appended to the log file.

- procrastinate (PostgreSQL): as `hearth worker` runs it: heartbeats every HEARTBEAT seconds,
  and the same stalled-job check, which puts the jobs of a silent worker back in the queue;
- RQ (Redis): its forking worker with the job monitored every 2 s, its maintenance (which
  hands on the jobs of dead workers) every 5 s and an idle worker's wait for work cut to 5 s,
  instead of 30 s, 10 minutes and 405 s: its best case;
  jobs are queued with a one-hour timeout (a run may be that long) and 3 retries;
- huey (Redis): its consumer with one worker thread, as documented.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from typing import Any

QUEUE = "bench"
PROCRASTINATE_TASK = "bench.agent_run"


def agent_run(key: str, seconds: float, log: str) -> str:
    """The job: a start line, a wait, an end line."""
    worker = os.environ.get("QUEUE_BENCH_WORKER", "0")
    _say(log, f"start {key} {worker} {time.time():.6f}")
    time.sleep(seconds)
    _say(log, f"end {key} {worker} {time.time():.6f}")
    return key


def _say(log: str, line: str) -> None:
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
    finally:
        os.close(fd)


def huey_app(url: str) -> tuple[Any, Any]:
    """The huey instance and the job as its task (calling the task queues it)."""
    from huey import RedisHuey  # type: ignore[import-untyped]

    huey = RedisHuey(QUEUE, url=url, results=False)
    return huey, huey.task(name="agent_run")(agent_run)


def procrastinate_app(url: str) -> Any:
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url))

    @app.task(name=PROCRASTINATE_TASK)
    async def run(key: str, seconds: float, log: str) -> str:
        return await asyncio.to_thread(agent_run, key, seconds, log)

    return app


async def _procrastinate_worker(url: str) -> None:
    from hearth.schedule.distributed import HEARTBEAT, STALLED_AFTER, ensure_schema, hand_on_stalled

    app = procrastinate_app(url)
    await ensure_schema(app)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with app.open_async():
        watcher = asyncio.ensure_future(hand_on_stalled(app, lambda _line: None, stop))
        worker = asyncio.ensure_future(
            app.run_worker_async(
                concurrency=1,
                install_signal_handlers=False,
                update_heartbeat_interval=HEARTBEAT,
                stalled_worker_timeout=STALLED_AFTER,
                fetch_job_polling_interval=1.0,
                delete_jobs="never",
            )
        )
        await stop.wait()
        worker.cancel()
        await asyncio.gather(worker, watcher, return_exceptions=True)


def main(engine: str, url: str) -> None:
    if engine == "procrastinate":
        asyncio.run(_procrastinate_worker(url))
    elif engine == "rq":
        from redis import Redis
        from rq import Queue, Worker

        conn = Redis.from_url(url)
        worker = Worker(
            [Queue(QUEUE, connection=conn)],
            connection=conn,
            job_monitoring_interval=2,
            maintenance_interval=5,
            worker_ttl=20,  # an idle worker looks for abandoned jobs every 5 s, not 405 s
        )
        worker.work(logging_level="WARNING")
    elif engine == "huey":
        consumer = huey_app(url)[0].create_consumer(workers=1, worker_type="thread", periodic=False)
        consumer.run()
    else:
        raise SystemExit(f"unknown engine {engine!r}: procrastinate, rq or huey")


if __name__ == "__main__":
    import queue_engine_worker  # the job by its module's name (huey's and RQ's workers find it so)

    queue_engine_worker.main(sys.argv[1], sys.argv[2])
