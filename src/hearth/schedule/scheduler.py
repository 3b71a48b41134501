"""The scheduler: fires due jobs, wakes waiting sessions, drains the inbox and the submit queue.

One scheduler per workspace (a lock file says which process it is). Each poll (`tick`) it:
queues the runs of jobs whose time came (by each job's missed-run policy), queues a wake-up for
each session whose `WAIT:` time passed, queues the inbox's files, then starts queued runs that are
due, up to `parallel` at once, each a headless session (runner.py). Time comes from `clock`, so
tests move it instead of sleeping. A run's failure is recorded on the run and logged; the
scheduler goes on with the others.

Stopping (SIGTERM, Ctrl-C) interrupts the sessions in flight and puts their runs back in the
queue; the next start resumes their sessions. A scheduler that was killed leaves its runs
`running`; the next one to start (it holds the lock, so the old one is gone) queues them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import IO

from hearth.core.errors import HearthError
from hearth.core.events import Event
from hearth.runtime.api import Runtime, state_dir
from hearth.schedule.formats import local_zone_name
from hearth.schedule.inbox import drain_inbox
from hearth.schedule.jobs import Broken, Clock, Fired, JobBook, Skipped, system_clock
from hearth.schedule.runner import work_run
from hearth.schedule.schedfile import load_file, schedules_path
from hearth.schedule.store import Run, ScheduleStore

LOCK_FILE = "scheduler.lock"
Log = Callable[[str], None]


class AlreadyRunning(HearthError):
    pass


@dataclass(frozen=True)
class SchedulerOptions:
    poll: float = 30.0  # seconds between looks at the clock, the queue and the inbox
    parallel: int = 2  # runs worked at once
    tz: str = ""  # the jobs' default time zone; blank: this machine's

    @property
    def grace(self) -> timedelta:
        """How late a run may start and still count as on time (later: missed)."""
        return timedelta(seconds=max(60.0, 2 * self.poll))


class SchedulerLock:
    """Held by the one scheduler of a workspace; released when its process ends, however it ends."""

    def __init__(self, workspace: Path) -> None:
        self.path = state_dir(workspace) / LOCK_FILE
        self._fh: IO[str] | None = None

    def acquire(self) -> SchedulerLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise AlreadyRunning(
                f"A scheduler is running for this workspace already (pid {holder}).",
                "Stop it first, or let it do the work (hearth submit queues for it).",
            ) from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        self._fh = fh
        return self

    def release(self) -> None:
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None

    @staticmethod
    def held(workspace: Path) -> bool:
        path = state_dir(workspace) / LOCK_FILE
        if not path.exists():
            return False
        with path.open("a+", encoding="utf-8") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh, fcntl.LOCK_UN)
        return False


class Scheduler:
    def __init__(
        self,
        rt: Runtime,
        options: SchedulerOptions | None = None,
        *,
        clock: Clock = system_clock,
        log: Log | None = None,
        on_event: Callable[[str, Event], None] | None = None,
        busy: Callable[[str], bool] | None = None,
    ) -> None:
        """`busy(session)`: the session is being worked elsewhere in this process (the web UI's
        hub), so a wake-up waits for the next look."""
        self.rt = rt
        self.busy = busy or (lambda _session: False)
        self.options = options or SchedulerOptions()
        self.clock = clock
        self.log = log or (lambda _line: None)
        self.on_event = on_event
        self.store = ScheduleStore(rt.store.path)
        self.book = JobBook(self.store, self.options.tz or local_zone_name(), clock)
        self.inbox = state_dir(rt.workspace) / "inbox"
        self.active: dict[int, asyncio.Task[None]] = {}
        self._lock = SchedulerLock(rt.workspace)
        self._wake = asyncio.Event()

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Take the workspace's lock; queue again the runs a dead scheduler left; read the
        workspace's schedules file; queue the startup jobs."""
        self._lock.acquire()
        for run in self.store.requeue_running():
            self.log(f"run {run.id} was cut off by a stop; it resumes (session {run.session or 'new'})")
        self.reload()
        for fired in self.book.startup():
            self.log(f"job {fired.job.id}: startup run {fired.run_id} queued")

    def reload(self) -> list[str]:
        """Read `.hearth/schedules.toml` (when there is one); lines saying what changed."""
        path = schedules_path(self.rt.workspace)
        lines: list[str] = []
        if not path.exists():
            return lines
        try:
            loaded = load_file(self.book, path)
        except HearthError as exc:
            lines.append(f"schedules file not read: {exc.message}")
        else:
            for job in [*loaded.added, *loaded.changed]:
                lines.append(
                    f"job {job.id} from {path.name} waits for approval: hearth jobs approve {job.id}"
                )
            lines += loaded.errors
        for line in lines:
            self.log(line)
        return lines

    async def serve(self, stop: asyncio.Event) -> None:
        """Start, run until `stop` is set, then interrupt the runs in flight (queued to resume)."""
        await self.start()
        try:
            await self.loop(stop)
        finally:
            await self.close()

    async def loop(self, stop: asyncio.Event) -> None:
        """Look every poll (or at once when nudged) until `stop` is set. A failing look is
        logged; the next one goes on."""
        while not stop.is_set():
            try:
                await self.tick()
            except Exception as exc:  # a bug must not stop the scheduling of everything else
                self.log(f"error: the scheduler's look failed: {type(exc).__name__}: {exc}")
            self._wake.clear()
            waits = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())}
            try:
                await asyncio.wait(waits, timeout=self.options.poll, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()

    def nudge(self) -> None:
        """Look now rather than at the next poll (a run was queued here)."""
        self._wake.set()

    async def close(self) -> None:
        tasks = list(self.active.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._lock.release()
        self.store.close()

    async def idle(self) -> None:
        """Wait until no run is in flight (for tests and one-shot use)."""
        while pending := [t for t in self.active.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    # -- one look ---------------------------------------------------------------------

    async def tick(self) -> None:
        now = self.clock()
        try:
            for result in self.book.due(self.options.grace):
                if isinstance(result, Fired):
                    late = " (late: caught up once)" if result.late else ""
                    self.log(f"job {result.job.id}: run {result.run_id} queued{late}")
                elif isinstance(result, Broken):
                    self.log(f"job {result.job.id} cannot be scheduled: {result.why}")
                elif isinstance(result, Skipped):
                    self.log(
                        f"job {result.job.id}: the run at {result.missed_at.isoformat()} was missed; skipped"
                    )
            self._queue_wakes()
            for taken in drain_inbox(self.inbox, self.store, now):
                if taken.run_id is None:
                    self.log(f"inbox: {taken.name} rejected: {taken.why}")
                else:
                    self.log(f"inbox: {taken.name} queued as run {taken.run_id}")
        except HearthError as exc:  # a bad job or file must not stop the others
            self.log(f"error: {exc}")
        self._launch()

    def _queue_wakes(self) -> None:
        now = self.clock()
        for session, wake_at in self.store.waiting_sessions():
            if wake_at > now or self.busy(session):
                continue
            origin = f"wake:{session}:{wake_at.isoformat()}"
            run_id = self.store.enqueue("wake", "", now, now, session=session, origin=origin)
            if run_id is not None:
                self.log(f"session {session} wakes (it waited until {wake_at.isoformat()}): run {run_id}")

    def _launch(self) -> None:
        for run_id in [k for k, t in self.active.items() if t.done()]:
            del self.active[run_id]
        while len(self.active) < self.options.parallel:
            run = self.store.claim(self.clock())
            if run is None:
                return
            self.active[run.id] = asyncio.ensure_future(self._work(run))

    async def _work(self, run: Run) -> None:
        what = f"job {run.job_id}" if run.job_id else run.kind
        self.log(f"run {run.id} ({what}) started")
        try:
            finished = await work_run(self.rt, self.store, run, self.on_event)
        except asyncio.CancelledError:
            self.store.requeue(run.id)
            self.log(f"run {run.id} stopped; it resumes at the next start")
            raise
        except HearthError as exc:
            self.store.finish(run.id, "failed", self.clock(), str(exc))
            self.log(f"run {run.id} ({what}) failed: {exc.message}")
        except Exception as exc:  # a bug: recorded on the run, the scheduler goes on
            self.store.finish(run.id, "failed", self.clock(), f"internal error: {type(exc).__name__}: {exc}")
            self.log(f"run {run.id} ({what}) failed: internal error {type(exc).__name__}: {exc}")
        else:
            session = self.store.run(run.id).session
            self.store.finish(run.id, finished.status.value, self.clock(), finished.reason)
            self.log(f"run {run.id} ({what}) {finished.status.value}: session {session}")
        finally:
            self.active.pop(run.id, None)
            with contextlib.suppress(Exception):
                self._launch()  # a slot is free: start the next due run without waiting a poll
