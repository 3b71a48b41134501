"""Runs commands through a backend: limits, timeouts, capped output, jobs, clean-up.

Each command is a fresh process in a new session. When it ends, times out or
floods its output, the backend's PID namespace (or the helper's subreaper)
makes sure nothing it started lives on. Control files the command touched are
put back as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass, field

from hearth.core.protocols import ExecResult, ExecSpec, JobInfo
from hearth.sandbox import guard
from hearth.sandbox.backend import Backend
from hearth.sandbox.limits import ProcessGroup, ResourceLimits
from hearth.sandbox.output import OutputCapture

OUTPUT_KILL_BYTES = 8 << 20
TERM_GRACE = 1.0


@dataclass
class _Job:
    id: str
    command: str
    process: asyncio.subprocess.Process
    group: ProcessGroup
    capture: OutputCapture
    reader: asyncio.Task[None]
    before: guard.Snapshot
    started: float = field(default_factory=time.monotonic)


class SandboxRunner:
    """The `Sandbox` the tools see."""

    def __init__(self, backend: Backend, limits: ResourceLimits | None = None) -> None:
        self.backend = backend
        self.limits = limits or backend.limits
        self._jobs: dict[str, _Job] = {}

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def isolated(self) -> bool:
        return self.backend.isolation.files and self.backend.isolation.network

    async def _spawn(self, spec: ExecSpec) -> tuple[asyncio.subprocess.Process, ProcessGroup]:
        group = ProcessGroup.create(self.limits)
        launch = self.backend.launch(spec)
        try:
            proc = await asyncio.create_subprocess_exec(
                *group.launcher(launch.argv),
                stdin=asyncio.subprocess.DEVNULL,
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
        """Control files as they were before this command or, while background jobs run, before
        the oldest of them started (so what a job changed meanwhile is undone too)."""
        running = [j for j in self._jobs.values() if j.process.returncode is None]
        return running[0].before if running else guard.snapshot(self.backend.workspace)

    async def run(self, spec: ExecSpec) -> ExecResult:
        before = self._baseline()
        started = time.perf_counter()
        proc, group = await self._spawn(spec)
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
            for _ in range(3):  # let the transport's close callbacks run before the caller's loop may end
                await asyncio.sleep(0)
        output = capture.text()
        report = guard.restore(self.backend.workspace, before)
        if report:
            output += "\n" + report.message()
        return ExecResult(
            exit_code=None if killed else proc.returncode,
            output=output,
            total_bytes=capture.total,
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
            killed=killed,
        )

    async def start(self, spec: ExecSpec) -> JobInfo:
        before = self._baseline()
        proc, group = await self._spawn(spec)
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
                report = guard.restore(self.backend.workspace, before)
                if report:
                    capture.feed(("\n" + report.message() + "\n").encode())

        job = _Job(job_id, spec.command, proc, group, capture, asyncio.create_task(follow()), before)
        self._jobs[job_id] = job
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

    async def close(self) -> None:
        for job_id in list(self._jobs):
            await self.stop(job_id)
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
