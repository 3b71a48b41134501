"""Runs commands through a backend: limits, timeouts, capped output, jobs, clean-up.

Per session (budget.py): the workspace may grow by at most the write budget, watched
while commands run, and only so many background jobs run at once.

Each command is a fresh process in a new session. When it ends, times out or
floods its output, the backend's PID namespace (or the helper's subreaper)
makes sure nothing it started lives on. Control files the command touched are
put back as they were.

Processes that outlive a call (background jobs, the `python` tool's interpreter and whatever
it leaves running, MCP servers) can write at any time, so while one lives the control files
are compared with what they were before the first of them started (the held baseline), not
with a snapshot taken later (which could already hold what one of them planted): after every
command, after every tool call (`settle`, from the dispatcher), every few seconds while idle,
when such a process ends, and when the session closes. What the user approved meanwhile
(a host-side write of a control file) joins the baseline (`adopt`).
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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from hearth.core.protocols import ExecResult, ExecSpec, JobInfo
from hearth.sandbox import guard, proctree
from hearth.sandbox.backend import Backend
from hearth.sandbox.budget import SessionCaps, WriteBudget
from hearth.sandbox.limits import ProcessGroup, ResourceLimits
from hearth.sandbox.output import OutputCapture

OUTPUT_KILL_BYTES = 8 << 20
LONG_LINE_BYTES = 4 << 20  # a long-lived process's longest answer line
TERM_GRACE = 1.0
WATCH_INTERVAL = 0.05  # seconds between looks at the write budget while commands run (a statvfs)
GUARD_INTERVAL = 2.0  # at least this long between the idle looks at control files while one is held
GUARD_SHARE = 20  # and at least 20 times the last look's duration (a big workspace is walked less)

log = logging.getLogger(__name__)


@dataclass(eq=False)  # held in a set by identity
class _Job:
    id: str
    command: str
    process: asyncio.subprocess.Process
    group: ProcessGroup
    capture: OutputCapture
    reader: asyncio.Task[None]
    started: float = field(default_factory=time.monotonic)


class SandboxRunner:
    """The `Sandbox` the tools see."""

    def __init__(
        self, backend: Backend, limits: ResourceLimits | None = None, caps: SessionCaps | None = None
    ) -> None:
        self.backend = backend
        self.limits = limits or backend.limits
        self._jobs: dict[str, _Job] = {}
        self._live: dict[int, asyncio.subprocess.Process] = {}  # id(process): runs and jobs under watch
        self._over_budget: dict[int, int] = {}  # id(process) -> growth when it was stopped for it
        self._watcher: asyncio.Task[None] | None = None
        self._stopping: set[asyncio.Task[None]] = set()
        self._long: set[LongProcess] = set()
        self._held: guard.Snapshot | None = None  # control files before the first lasting process
        self._holders: set[object] = set()  # what keeps it: jobs, long processes, MCP servers
        self._unsaid: list[str] = []  # what the idle looks undid, said with the next tool result
        self._guarder: asyncio.Task[None] | None = None
        self._calls = 0  # tool calls under way (`calling`): the idle looks wait for them
        self.final_report = guard.Report()  # what the last look, at close, undid
        # Called at every look (after each command and tool call, while idle, at close): the
        # session's other records of what its processes wrote (pipeline/approvals.py).
        self.watchers: list[Callable[[], None]] = []
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

    async def _spawn(
        self, spec: ExecSpec, limits: ResourceLimits | None = None, *, stdin: int = asyncio.subprocess.DEVNULL
    ) -> tuple[asyncio.subprocess.Process, ProcessGroup]:
        group = ProcessGroup.create(limits or self.limits)
        launch = self.backend.launch(spec)
        try:
            proc = await asyncio.create_subprocess_exec(
                *group.launcher(launch.argv),
                limit=LONG_LINE_BYTES,
                stdin=stdin,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env=self.backend.env(spec),
                start_new_session=True,
                pass_fds=launch.pass_fds,
            )
        except BaseException:
            group.remove()
            raise
        finally:
            launch.close()
        return proc, group

    def _baseline(self) -> guard.Snapshot:
        """Control files as they were before this command or, while a lasting process lives,
        before the first of them started (so what one changed meanwhile is undone too)."""
        return self._held if self._held is not None else guard.snapshot(self.backend.workspace)

    def hold(self, holder: object) -> None:
        """Before a process that outlives its call starts: keep the control files' baseline from
        now until no such process is left (see the module's docstring)."""
        if self._held is None:
            self._held = guard.snapshot(self.backend.workspace)
        self._holders.add(holder)
        with contextlib.suppress(RuntimeError):  # no running loop: looked at by `settle` only
            loop = asyncio.get_running_loop()
            guarder = self._guarder
            if guarder is None or guarder.done() or guarder.get_loop() is not loop:
                self._guarder = loop.create_task(self._guard_idle())

    def _lasting(self) -> bool:
        """True while a process that holds the baseline may still write."""
        for holder in list(self._holders):
            if isinstance(holder, _Job | LongProcess) and not _alive(holder):
                continue
            return True
        return False

    def _look(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher()
            except Exception:  # a record that failed is logged, never a crash of the loop
                log.exception("a sandbox watcher failed")

    def settle(self) -> guard.Report:
        """Undo what changed in control files since the held baseline (after each tool call,
        when a lasting process ends, at the session's end); let it go when none is left."""
        self._look()
        report = guard.Report()
        for line in self._unsaid:
            report.undone.append(line)
        self._unsaid.clear()
        if self._held is None:
            return report
        found = guard.restore(self.backend.workspace, self._held)
        report.undone += found.undone
        report.errors += found.errors
        if not self._lasting():
            self._held = None
            self._holders.clear()
        return report

    @contextlib.contextmanager
    def calling(self) -> Iterator[None]:
        """Around one tool call: the idle looks stay away (a write the user approved is adopted
        after the tool, before anything compares), and `settle` follows it."""
        self._calls += 1
        try:
            yield
        finally:
            self._calls -= 1

    def adopt(self, rel: str) -> None:
        """A control file the user approved writing (a host-side tool wrote it): kept as it is now."""
        if self._held is not None:
            self._held = guard.adopt(self.backend.workspace, self._held, rel)

    async def _guard_idle(self) -> None:
        """While the baseline is held and no tool runs: look now and then, so a planted hook does
        not wait for the next tool call (the user may run git meanwhile)."""
        pause = GUARD_INTERVAL
        while self._held is not None:
            await asyncio.sleep(pause)
            if self._held is None:
                return
            if self._calls:
                continue
            began = time.monotonic()
            self._look()
            found = guard.restore(self.backend.workspace, self._held)
            pause = max(GUARD_INTERVAL, GUARD_SHARE * (time.monotonic() - began))
            self._unsaid += [f"{rel} (while no tool ran)" for rel in found.undone]
            if found.undone:
                log.warning("control files changed by a session process were put back: %s", found.undone)

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
            group.remove()
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
        self._look()
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
            self._holders.discard(token)
        self._watch(proc)
        capture = OutputCapture(head=8_000, tail=24_000)
        job_id = "job_" + secrets.token_hex(3)

        async def follow() -> None:
            try:
                await asyncio.wait_for(_pump(proc, capture, None), timeout=spec.timeout)
                await proc.wait()
            except TimeoutError:
                await _terminate(proc)
            finally:
                group.remove()
                self._live.pop(id(proc), None)
                self._over_budget.pop(id(proc), None)
                report = self.settle()
                if report:
                    capture.feed(("\n" + report.message() + "\n").encode())

        job = _Job(job_id, spec.command, proc, group, capture, asyncio.create_task(follow()))
        self._jobs[job_id] = job
        self._holders.add(job)
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
            self._holders.discard(token)
        self._watch(proc)  # the write budget holds for it too: past it, it is stopped
        long = LongProcess(self, proc, group, main)
        self._long.add(long)
        self._holders.add(long)
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
        self._holders.clear()  # every process the session started is gone: a last look
        report = self.settle()
        if report:
            log.warning("at the session's end: %s", report.message())
        self.final_report = report
        if self._guarder is not None and self._guarder.get_loop() is asyncio.get_running_loop():
            self._guarder.cancel()
        if self._watcher is not None and self._watcher.get_loop() is asyncio.get_running_loop():
            self._watcher.cancel()
        close = getattr(self.backend, "close", None)
        if close:
            close()

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
        self._group.remove()
        for _ in range(3):
            await asyncio.sleep(0)


def _alive(holder: _Job | LongProcess) -> bool:
    if isinstance(holder, _Job):
        return holder.process.returncode is None
    return holder.alive


def _argv(p: proctree.Proc) -> str:
    return " ".join(a.decode(errors="replace") for a in p.argv)[:80] or f"pid {p.pid}"


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
