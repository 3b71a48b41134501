"""Runs commands through a backend: limits, timeouts, capped output, jobs, clean-up.

Per session (budget.py): the workspace may grow by at most the write budget, watched
while commands run, and only so many background jobs run at once.

Each command is a fresh process in a new session. When it ends, times out or
floods its output, the backend's PID namespace (or the helper's subreaper)
makes sure nothing it started lives on. Control files the command touched are
put back as they were.

Processes that outlive a call (background jobs, the `python` tool's interpreter and whatever
it leaves running, MCP servers) are compared with the control files' state before the first of
them started, not with a later snapshot (held.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import os
import secrets
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from hearth.core.protocols import ExecResult, ExecSpec, JobInfo
from hearth.sandbox import guard, proctree
from hearth.sandbox.backend import Backend
from hearth.sandbox.budget import SessionCaps, WriteBudget
from hearth.sandbox.held import HeldControls
from hearth.sandbox.limits import ProcessGroup, ResourceLimits
from hearth.sandbox.output import OutputCapture
from hearth.sandbox.spare import Spare

log = logging.getLogger(__name__)

OUTPUT_KILL_BYTES = 8 << 20
LONG_LINE_BYTES = 4 << 20  # a long-lived process's longest answer line
TERM_GRACE = 1.0
WATCH_INTERVAL = 0.05  # seconds between looks at the write budget while commands run (a statvfs)


@dataclass(eq=False)  # held in a set by identity
class _Job:
    id: str
    command: str
    process: asyncio.subprocess.Process
    group: ProcessGroup
    capture: OutputCapture
    reader: asyncio.Task[None]
    started: float = field(default_factory=time.monotonic)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None


class SandboxRunner:
    """The `Sandbox` the tools see."""

    def __init__(
        self,
        backend: Backend,
        limits: ResourceLimits | None = None,
        caps: SessionCaps | None = None,
        *,
        spares: bool = True,
    ) -> None:
        """`spares`: start each command's launcher ahead (spare.py); off for a runner that runs
        one command (the sandbox self-test), where the spare would only be thrown away."""
        self.backend = backend
        self.limits = limits or backend.limits
        self._jobs: dict[str, _Job] = {}
        self._live: dict[int, asyncio.subprocess.Process] = {}  # id(process): runs and jobs under watch
        self._over_budget: dict[int, int] = {}  # id(process) -> growth when it was stopped for it
        self._watcher: asyncio.Task[None] | None = None
        self._stopping: set[asyncio.Task[None]] = set()
        self._long: set[LongProcess] = set()
        self._removing: set[asyncio.Task[None]] = set()  # cgroups of ended commands, being removed
        self._spare: asyncio.Task[Spare] | None = None  # the next command's launcher, started ahead
        self._spares_fail = not spares or sys.platform != "linux"  # prlimit and SOCK_SEQPACKET
        self.held = HeldControls(backend.workspace)  # control files while lasting processes live
        self.set_caps(caps or SessionCaps())
        _sweep_once()

    def set_caps(self, caps: SessionCaps) -> None:
        """The session's caps (settings `max_session_write_bytes`, `max_background_jobs`)."""
        self.caps = caps
        folders = [self.backend.workspace, *getattr(self.backend, "scratch_dirs", ())]
        self.budget = WriteBudget(folders, caps.write_bytes)

    async def _check_jobs(self) -> None:
        from hearth.core.errors import ToolError

        grown = await self.budget.over()
        if grown is not None:
            raise ToolError(self.budget.message(grown, "No background job can start until then."))
        running = [j for j in self._jobs.values() if j.process.returncode is None]
        started = [p for long in self._long for p in long.leftovers()]
        if len(running) + len(started) >= self.caps.background_jobs:
            now = time.monotonic()
            listing = "\n".join(
                [f"  {j.id}  running {now - j.started:.0f}s  {j.command[:80]}" for j in running]
                + [f"  pid {p.pid}  started from python  {_argv(p)}" for p in started]
            )
            raise ToolError(
                f"{len(running) + len(started)} background jobs are running, the session's limit "
                f"(`max_background_jobs`):\n{listing}\nStop one with "
                "shell_jobs(action='stop', id=...) (or end the processes python started) first, "
                "or run the command in the foreground."
            )

    def _watch(self, proc: asyncio.subprocess.Process) -> None:
        if not self.budget.cap:
            return
        self._live[id(proc)] = proc
        watcher = self._watcher
        if watcher is None or watcher.done() or watcher.get_loop() is not asyncio.get_running_loop():
            self._watcher = asyncio.create_task(self._watch_budget())

    async def _watch_budget(self) -> None:
        """While commands run: stop them all once the workspace has grown past the budget."""
        while self._live:
            await asyncio.sleep(WATCH_INTERVAL)
            grown = await self.budget.over()
            if grown is None:
                continue
            note = ("\n" + self.budget.message(grown, "The job was stopped.")).encode()
            for key, proc in list(self._live.items()):
                del self._live[key]
                self._over_budget[key] = grown
                for job in self._jobs.values():
                    if job.process is proc:
                        job.capture.feed(note)
                task = asyncio.create_task(_terminate(proc, drain=False))
                self._stopping.add(task)
                task.add_done_callback(self._stopping.discard)

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def isolated(self) -> bool:
        return self.backend.isolation.files and self.backend.isolation.network

    @property
    def hides_secrets(self) -> bool:
        """Secret files read as empty to a command (bwrap); Landlock cannot take them out of the
        workspace it grants, so there a command naming one asks (agent/policy.py)."""
        return self.isolated and self.backend.isolation.secrets

    async def _spawn(
        self, spec: ExecSpec, limits: ResourceLimits | None = None, *, stdin: int = asyncio.subprocess.DEVNULL
    ) -> tuple[asyncio.subprocess.Process, ProcessGroup]:
        spare = await self._take_spare() if limits is None and stdin == asyncio.subprocess.DEVNULL else None
        launch = self.backend.launch(spec)
        env = self.backend.env(spec)
        try:
            if spare is not None and Spare.fits(launch.argv, env, launch.pass_fds):
                with contextlib.suppress(OSError):  # it died while waiting: the plain way
                    return spare.become(launch.argv, env, launch.pass_fds), spare.group
            if spare is not None:
                self._discard(spare)
            group = await asyncio.to_thread(ProcessGroup.create, limits or self.limits)
            try:
                proc = await asyncio.create_subprocess_exec(
                    *group.launcher(launch.argv),
                    limit=LONG_LINE_BYTES,
                    stdin=stdin,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.STDOUT,
                    env=env,
                    start_new_session=True,
                    pass_fds=launch.pass_fds,
                )
            except BaseException:
                self._remove(group)
                raise
            return proc, group
        finally:
            launch.close()

    def _ready_next(self) -> None:
        """Start the next command's launcher, after a command has started or ended rather than
        while one starts (its interpreter would take the processor from the command)."""
        if not self._spares_fail and self._spare is None:
            self._spare = asyncio.create_task(Spare.make(self.limits, line_limit=LONG_LINE_BYTES))

    async def _take_spare(self) -> Spare | None:
        """The launcher started ahead for this command (spare.py), if one was made under this
        event loop. None: start the plain way (the session's first command, say)."""
        task, self._spare = self._spare, None
        if self._spares_fail or task is None:
            return None
        if task.get_loop() is not asyncio.get_running_loop():
            _drop_elsewhere(task)  # made under another event loop, closed or closing by now
            return None
        try:
            return await task
        except Exception:  # e.g. its rlimits could not be set: the plain way from now on
            self._spares_fail = True
            return None

    def _discard(self, spare: Spare) -> None:
        self._in_background(spare.discard())

    def _remove(self, group: ProcessGroup) -> None:
        """Empty and remove a command's cgroup off the event loop and off the command's path
        (removing waits until the kernel has let go of its processes)."""
        if not group.active:
            return
        self._in_background(asyncio.to_thread(group.remove))

    def _in_background(self, cleanup: Coroutine[Any, Any, None]) -> None:
        """A clean-up nobody awaits but close: its failure (a cgroup the kernel still holds, or
        the interpreter exiting while it was on its way to a thread) is logged, never printed
        as an unretrieved task's traceback."""
        task = asyncio.create_task(cleanup)
        self._removing.add(task)
        task.add_done_callback(_cleaned_up)
        task.add_done_callback(self._removing.discard)

    def _baseline(self) -> guard.Snapshot:
        """Control files as they were before this command or, while a lasting process lives,
        before the first of them started (so what one changed meanwhile is undone too)."""
        held = self.held.snapshot
        return held if held is not None else guard.snapshot(self.backend.workspace)

    # The held baseline (held.py), for the dispatcher and the tools: one per runner.
    def hold(self, holder: object) -> None:
        self.held.hold(holder)

    def settle(self) -> guard.Report:
        return self.held.settle()

    def calling(self) -> contextlib.AbstractContextManager[None]:
        return self.held.calling()

    def adopt(self, rel: str) -> None:
        self.held.adopt(rel)

    @property
    def watchers(self) -> list[Callable[[], None]]:
        return self.held.watchers

    @property
    def final_report(self) -> guard.Report:
        return self.held.final_report

    async def run(self, spec: ExecSpec) -> ExecResult:
        over = await self.budget.over()  # past the budget, a command may still read and delete
        before = self._baseline()
        started = time.perf_counter()
        limits = dataclasses.replace(self.limits, file_bytes=0) if over is not None else None
        proc, group = await self._spawn(spec, limits)
        if over is None:
            self._watch(proc)
        capture = OutputCapture()
        killed: str | None = None
        try:
            await asyncio.wait_for(_pump(proc, capture, OUTPUT_KILL_BYTES), timeout=spec.timeout)
            if capture.total > OUTPUT_KILL_BYTES:
                killed = "output limit"
            else:
                await asyncio.wait_for(proc.wait(), timeout=spec.timeout)
        except TimeoutError:
            killed = "timeout"
        finally:
            if killed or proc.returncode is None:
                await _terminate(proc)
            self._remove(group)
            self._live.pop(id(proc), None)
            for _ in range(3):  # let the transport's close callbacks run before the caller's loop may end
                await asyncio.sleep(0)
        output = capture.text()
        stopped = self._over_budget.pop(id(proc), None)
        if stopped is not None:
            killed = "write budget"
            output += "\n" + self.budget.message(stopped, "The command was stopped.")
        elif over is not None:
            output += "\n" + self.budget.message(over, "Until then commands cannot write files.")
        elif self.budget.cap and (grown := await self.budget.over()) is not None:
            output += "\n" + self.budget.message(grown, "From now on commands cannot write files.")
        report = guard.restore(self.backend.workspace, before)
        if report:
            output += "\n" + report.message()
        self.held.look()
        self._ready_next()
        return ExecResult(
            exit_code=None if killed else proc.returncode,
            output=output,
            total_bytes=capture.total,
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
            killed=killed,
        )

    async def start(self, spec: ExecSpec) -> JobInfo:
        await self._check_jobs()
        token = object()
        self.hold(token)
        try:
            proc, group = await self._spawn(spec)
        finally:
            self.held.release(token)
        self._watch(proc)
        self._ready_next()
        capture = OutputCapture(head=8_000, tail=24_000)
        job_id = "job_" + secrets.token_hex(3)

        async def follow() -> None:
            try:
                await asyncio.wait_for(_pump(proc, capture, None), timeout=spec.timeout)
                await proc.wait()
            except TimeoutError:
                await _terminate(proc)
            finally:
                self._remove(group)
                self._live.pop(id(proc), None)
                self._over_budget.pop(id(proc), None)
                report = self.settle()
                if report:
                    capture.feed(("\n" + report.message() + "\n").encode())

        job = _Job(job_id, spec.command, proc, group, capture, asyncio.create_task(follow()))
        self._jobs[job_id] = job
        self.held.holders.add(job)
        return self._info(job)

    def jobs(self) -> list[JobInfo]:
        return [self._info(j) for j in self._jobs.values()]

    def read(self, job_id: str) -> str:
        job = self._get(job_id)
        info = self._info(job)
        state = "running" if info.running else f"exited with code {info.exit_code}"
        return f"[{job_id} {state}, {job.capture.total} bytes of output]\n{job.capture.text()}"

    async def stop(self, job_id: str) -> JobInfo:
        job = self._get(job_id)
        if job.process.returncode is None:
            await _terminate(job.process, drain=False)  # the job's own reader reads to the end
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(job.reader, timeout=5)
        return self._info(job)

    async def open(self, spec: ExecSpec, main: str = "") -> LongProcess:
        """A long-lived confined process the caller talks to over its stdin and stdout (the
        `python` tool's interpreter). Same backend, limits and clean-up as a command; it dies
        with Hearth (the backend's parent-death handling) and with `close`. `main`: the main
        process's last argument, to tell the processes it starts (background work) from it."""
        token = object()
        self.hold(token)
        try:
            proc, group = await self._spawn(spec, stdin=asyncio.subprocess.PIPE)
        finally:
            self.held.release(token)
        self._watch(proc)  # the write budget holds for it too: past it, it is stopped
        long = LongProcess(self, proc, group, main)
        self._long.add(long)
        self.held.holders.add(long)
        return long

    def room(self, long: LongProcess) -> int:
        """How many processes `long` may leave running: the background-job cap, less the jobs
        and the other long processes' leftovers."""
        running = sum(1 for j in self._jobs.values() if j.process.returncode is None)
        others = sum(len(o.leftovers()) for o in self._long if o is not long)
        return max(0, self.caps.background_jobs - running - others)

    async def close(self) -> None:
        for long in list(getattr(self, "_long", ())):
            await long.close()
        for job_id in list(self._jobs):
            await self.stop(job_id)
        self.held.close()  # every process the session started is gone: a last look
        if self._watcher is not None and self._watcher.get_loop() is asyncio.get_running_loop():
            self._watcher.cancel()
        await self._settle_groups()
        close = getattr(self.backend, "close", None)
        if close:
            close()

    async def _settle_groups(self) -> None:
        """The launcher started ahead and the cgroups being removed: all gone before the runner
        closes."""
        spare, self._spare = self._spare, None
        loop = asyncio.get_running_loop()
        if spare is not None and spare.get_loop() is loop:
            with contextlib.suppress(Exception):
                await (await spare).discard()
        elif spare is not None:
            _drop_elsewhere(spare)
        pending = [t for t in self._removing if t.get_loop() is loop]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    def _get(self, job_id: str) -> _Job:
        from hearth.core.errors import ToolError

        if job_id not in self._jobs:
            known = ", ".join(self._jobs) or "none"
            raise ToolError(f"No background job {job_id!r}. Jobs: {known}.")
        return self._jobs[job_id]

    @staticmethod
    def _info(job: _Job) -> JobInfo:
        code = job.process.returncode
        return JobInfo(id=job.id, command=job.command, running=code is None, exit_code=code)


class LongProcess:
    """A confined process that lives across calls: one request line in, lines out until the
    answer line (it starts with the caller's marker). Control files it touched during a call are
    put back after it, as for a command."""

    def __init__(
        self, runner: SandboxRunner, proc: asyncio.subprocess.Process, group: ProcessGroup, main: str = ""
    ) -> None:
        self._runner = runner
        self.process = proc
        self._group = group
        self._main = main

    def leftovers(self) -> list[proctree.Proc]:
        """The processes it started that are still running (background work), oldest first."""
        if not self._main or self.process.returncode is not None:
            return []
        return proctree.started_by_main(self.process.pid, self._main)

    def _capped(self) -> str:
        """Stop the newest processes it left past the session's background-job cap; what was done."""
        left = self.leftovers()
        room = self._runner.room(self)
        if len(left) <= room:
            return ""
        stopped = left[room:]
        proctree.kill(stopped)
        return (
            f"[hearth: {len(left)} processes started from python were still running; they count as "
            f"background jobs, and the session's limit (`max_background_jobs`, "
            f"{self._runner.caps.background_jobs}) left room for {room}, so {len(stopped)} "
            f"were stopped: {', '.join(_argv(p) for p in stopped[:5])}]"
        )

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def exchange(self, request: bytes, marker: bytes, timeout: float) -> tuple[bytes, str]:
        """(the answer line without its marker, a note on control files put back, or "").
        TimeoutError: no answer in time (the process is then stopped); EOFError: it ended."""
        proc = self.process
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(request.rstrip(b"\n") + b"\n")
            async with asyncio.timeout(timeout):
                await proc.stdin.drain()
                while True:
                    line = await proc.stdout.readline()
                    if not line:
                        raise EOFError("the process ended")
                    if line.startswith(marker):
                        answer = line[len(marker) :].rstrip(b"\n")
                        break
        except (TimeoutError, EOFError, ConnectionError, ValueError, asyncio.LimitOverrunError) as exc:
            grown = self._runner._over_budget.get(id(proc))
            if grown is not None:
                exc.add_note(self._runner.budget.message(grown, "The process was stopped."))
            await self.close()
            report = self._runner.settle()
            if report:
                exc.add_note(report.message())
            raise
        capped = self._capped()
        report = self._runner.settle()
        notes = [n for n in (capped, report.message() if report else "") if n]
        return answer, "\n".join(notes)

    async def close(self) -> None:
        self._runner._long.discard(self)
        self._runner._live.pop(id(self.process), None)
        self._runner._over_budget.pop(id(self.process), None)
        if self.process.returncode is None:
            await _terminate(self.process)
        await asyncio.to_thread(self._group.remove)
        for _ in range(3):
            await asyncio.sleep(0)


def _argv(p: proctree.Proc) -> str:
    return " ".join(a.decode(errors="replace") for a in p.argv)[:80] or f"pid {p.pid}"


def _cleaned_up(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.debug("a clean-up after a command failed: %r", exc)


def _drop_elsewhere(task: asyncio.Task[Spare]) -> None:
    """A spare made under an event loop that is not running now; a pending one is cancelled
    with its loop (its own clean-up removes what it made)."""
    if task.done() and not task.cancelled() and task.exception() is None:
        task.result().drop()


@functools.cache
def _sweep_once() -> None:
    """Once per process: kill what a Hearth that was killed left in its cgroups."""
    ProcessGroup.sweep_stale()


async def _pump(proc: asyncio.subprocess.Process, capture: OutputCapture, limit: int | None) -> None:
    assert proc.stdout is not None
    while True:
        chunk = await proc.stdout.read(65536)
        if not chunk:
            return
        capture.feed(chunk)
        if limit is not None and capture.total > limit:
            return


async def _terminate(proc: asyncio.subprocess.Process, *, drain: bool = True) -> None:
    """SIGTERM first (the helper then kills what is under it), then SIGKILL the group."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), timeout=TERM_GRACE)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), timeout=5)
    if drain and proc.stdout is not None:  # read to EOF so the pipe closes with this event loop
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(proc.stdout.read(), timeout=2)
