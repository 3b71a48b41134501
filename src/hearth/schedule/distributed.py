"""The run queue on more than one machine: PostgreSQL through procrastinate (`queue_url`).

With `queue_url` blank, work is queued in the workspace's SQLite file and one scheduler works it
(scheduler.py): nothing to install or start. With `queue_url = "postgresql://..."`, `hearth submit`
queues a job in PostgreSQL and any number of `hearth worker` processes, on any machines that
reach the database and see the workspace (a shared folder), take jobs from it. A job may name a
git remote instead of a folder (remote.py): each worker then clones it into its own work folder.

- no job runs twice at once: procrastinate takes a job in one transaction (`FOR UPDATE SKIP
  LOCKED`), so two workers never get the same one;
- a worker that dies hands its job on: each worker beats a heartbeat into the database, and every
  worker looks every `STALLED_CHECK` seconds for jobs held by workers whose heartbeat stopped,
  and puts them back in the queue; the next worker to take the job resumes its session (the
  session id is recorded, keyed by the job, in the workspace's store before the model is asked
  anything), so the work done before the death is kept.

Why procrastinate (PostgreSQL) rather than a Redis queue (RQ, huey, Celery) or Ray: agent runs are
long (minutes to hours) and mostly wait on the model. A Redis queue with late acknowledgement
hands a dead worker's job on only after a visibility timeout, which must be longer than the
longest run (or a live run is handed on too, and runs twice); huey loses a job its worker dies
with; Ray schedules short CPU tasks and would bring a cluster to run for a queue. procrastinate's
heartbeats tell a dead worker from a slow run, so the handoff takes seconds whatever the run's
length, and PostgreSQL is a server many users already run. (bench/run_queue.py measures it;
bench/queue_engines.py measures it against RQ and huey on Redis.)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError
from hearth.runtime.api import Runtime, Settings, check_workspace, open_runtime
from hearth.schedule.jobs import system_clock
from hearth.schedule.remote import Remote, check_remote, finish, prepare, work_folder
from hearth.schedule.runner import work_run
from hearth.schedule.store import ScheduleStore

TASK = "hearth.run"
HEARTBEAT = 2.0  # seconds between a worker's heartbeats
STALLED_AFTER = 8.0  # a worker silent this long is dead; its jobs go back to the queue
STALLED_CHECK = 2.0  # how often each worker looks for such jobs

Log = Callable[[str], None]


def _needs_engine() -> Any:
    try:
        import procrastinate
    except ImportError:  # pragma: no cover - the extra is part of the dev install
        raise HearthError(
            "queue_url needs the distributed queue's libraries.", "pip install 'hearth[queue]'"
        ) from None
    return procrastinate


def make_app(queue_url: str) -> Any:
    if not queue_url.startswith(("postgresql://", "postgres://")):
        engine = queue_url.split(":", 1)[0] if ":" in queue_url else ""
        why = (
            " Redis-backed queues were measured and not chosen: a dead worker's run is lost (huey) or "
            "handed on only after a minute or more (RQ); see the README's 'More than one machine'."
            if engine in ("redis", "rediss")
            else ""
        )
        raise HearthError(
            f"queue_url {queue_url!r} is not a PostgreSQL URL.{why}",
            "Use postgresql://USER@HOST:PORT/DB, or leave queue_url blank for the embedded queue.",
        )
    procrastinate = _needs_engine()
    return procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=queue_url))


async def ensure_schema(app: Any) -> None:
    """Create procrastinate's tables the first time (a no-op when they exist)."""
    async with app.open_async():
        rows = await app.connector.execute_query_all_async(
            "SELECT 1 FROM information_schema.tables WHERE table_name = 'procrastinate_jobs'"
        )
        if not rows:
            with contextlib.suppress(Exception):  # two workers starting at once: one of them wins
                await app.schema_manager.apply_schema_async()


async def submit(queue_url: str, task: str, workspace: Path | None, remote: Remote | None = None) -> int:
    """Queue `task` for the workers, in `workspace` (a folder they see) or in a clone of `remote`;
    the job's id."""
    if not task.strip():
        raise HearthError("The task is empty.", 'Say what to do: hearth submit "task".')
    where: dict[str, str] = {"workspace": str(workspace.resolve()) if workspace is not None else ""}
    if remote is not None:
        remote = check_remote(remote)
        where = {"workspace": "", "repo": remote.url, "ref": remote.ref, "push": remote.push}
    elif workspace is None:
        raise HearthError("A job needs a workspace or a git remote.", "Give --workspace DIR or --repo URL.")
    app = make_app(queue_url)
    await ensure_schema(app)
    _register(app, _Runner(Settings(), lambda _line: None))
    async with app.open_async():
        job_id: int = await app.tasks[TASK].defer_async(task=task.strip(), **where)
    return job_id


@dataclass
class _Runner:
    """What a worker needs to work a job: settings, and a runtime per workspace, opened once."""

    settings: Settings
    log: Log
    runtimes: dict[str, Runtime] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def runtime(self, workspace: str) -> Runtime:
        async with self.lock:
            if workspace not in self.runtimes:
                path = Path(workspace)
                check_workspace(path)
                self.runtimes[workspace] = await open_runtime(
                    self.settings.model_copy(update={"workspace": path})
                )
            return self.runtimes[workspace]

    async def work(self, job_id: int, task: str, workspace: str, remote: Remote | None = None) -> str:
        if remote is not None:
            return await self._work_remote(job_id, task, check_remote(remote))
        rt = await self.runtime(workspace)
        return await self._work_in(rt, job_id, task)

    async def _work_remote(self, job_id: int, task: str, remote: Remote) -> str:
        """In this worker's own clone of the remote (untrusted: see remote.py); pushed back if asked."""
        try:
            folder, again = await prepare(work_folder(self.settings), job_id, remote)
        except HearthError as exc:
            self.log(f"job {job_id} failed: {exc.message} {exc.hint or ''}".rstrip())
            raise
        self.log(f"job {job_id}: {'resuming in' if again else 'cloned ' + remote.url + ' into'} {folder}")
        # The worker's own settings; the repository's .hearth/config.toml is never read.
        rt = await open_runtime(self.settings.model_copy(update={"workspace": folder}))
        try:
            session = await self._work_in(rt, job_id, task)
        finally:
            await rt.aclose()
        if remote.push:
            try:
                self.log(f"job {job_id}: {await finish(folder, remote, job_id, task)}")
            except HearthError as exc:  # the work stays in the folder; said in the log
                self.log(f"job {job_id}: not pushed ({exc.message}); the work is in {folder}")
        return session

    async def _work_in(self, rt: Runtime, job_id: int, task: str) -> str:
        store = ScheduleStore(rt.store.path)
        try:
            now = system_clock()
            origin = f"queue:{job_id}"
            # Recorded as running here: a scheduler on this workspace must not take it too.
            run_id = store.enqueue("submit", task, now, now, origin=origin, status="running")
            run = store.run(run_id) if run_id is not None else _by_origin(store, origin)
            if run_id is None:
                self.log(f"job {job_id}: taken again after a worker stopped; resuming session {run.session}")
            finished = await work_run(rt, store, run)
            store.finish(run.id, finished.status.value, system_clock(), finished.reason)
            session = store.run(run.id).session or ""
            self.log(f"job {job_id} {finished.status.value}: session {session}")
            return session
        finally:
            store.close()

    async def aclose(self) -> None:
        for rt in self.runtimes.values():
            await rt.aclose()


def _by_origin(store: ScheduleStore, origin: str) -> Any:
    run = store.by_origin(origin)
    if run is None:  # pragma: no cover - the row was there a moment ago
        raise HearthError(f"The run for {origin} vanished.", "Submit the task again.")
    return run


def _register(app: Any, runner: _Runner) -> None:
    @app.task(name=TASK, pass_context=True)
    async def hearth_run(
        context: Any, task: str, workspace: str, repo: str = "", ref: str = "", push: str = ""
    ) -> str:
        remote = Remote(repo, ref, push) if repo else None
        return await runner.work(int(context.job.id), task, workspace, remote)


async def hand_on_stalled(app: Any, log: Log, stop: asyncio.Event) -> None:
    """Put back in the queue the jobs of workers whose heartbeat stopped."""
    while not stop.is_set():
        try:
            for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER):
                await app.job_manager.retry_job(job)
                log(f"job {job.id}: its worker stopped beating; back in the queue")
            await app.job_manager.prune_stalled_workers(seconds_since_heartbeat=STALLED_AFTER * 4)
        except Exception as exc:  # the database is away for a moment: look again later
            log(f"the stalled-job check failed: {type(exc).__name__}: {exc}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), STALLED_CHECK)


async def serve_worker(settings: Settings, concurrency: int, log: Log, stop: asyncio.Event) -> None:
    """A worker: take jobs from the queue until `stop` is set; on stop, let the running jobs end."""
    app = make_app(settings.schedule.queue_url)
    await ensure_schema(app)
    runner = _Runner(settings, log)
    _register(app, runner)
    async with app.open_async():
        watcher = asyncio.ensure_future(hand_on_stalled(app, log, stop))
        worker = asyncio.ensure_future(
            app.run_worker_async(
                concurrency=concurrency,
                install_signal_handlers=False,
                update_heartbeat_interval=HEARTBEAT,
                stalled_worker_timeout=STALLED_AFTER,
                fetch_job_polling_interval=1.0,
                delete_jobs="never",
            )
        )
        try:
            await stop.wait()
        finally:
            worker.cancel()
            await asyncio.gather(worker, watcher, return_exceptions=True)
            await runner.aclose()
