"""The control files' held baseline while processes that outlive their call live.

A background job, the `python` interpreter (with the threads and processes it leaves) and an MCP
server can write at any time, so from the moment the first of them starts until none is left
the control files are compared with how they were *before* it started, never with a snapshot
taken later (which could already hold what one of them planted). The runner looks after every
command, the dispatcher after every tool call (`calling`, then `settle`), this module every few
seconds while no tool runs, and the runner when one ends and when the session closes. A control
file the user approved writing through a host-side tool joins the baseline (`adopt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from hearth.sandbox import guard

GUARD_INTERVAL = 2.0  # at least this long between the idle looks at control files while one is held
GUARD_SHARE = 20  # and at least 20 times the last look's duration (a big workspace is walked less)

log = logging.getLogger(__name__)


class HeldControls:
    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.snapshot: guard.Snapshot | None = None  # control files before the first lasting process
        self.holders: set[object] = set()  # what keeps it: jobs, long processes (`alive`), MCP servers
        self.final_report = guard.Report()  # what the last look, at close, undid
        # Called at every look (after each command and tool call, while idle, at close): the
        # session's other records of what its processes wrote (runtime/plan_writes.py).
        self.watchers: list[Callable[[], None]] = []
        self._unsaid: list[str] = []  # what the idle looks undid, said with the next tool result
        self._idle: asyncio.Task[None] | None = None
        self._calls = 0  # tool calls under way (`calling`): the idle looks wait for them

    def hold(self, holder: object) -> None:
        """Before a process that outlives its call starts: keep the baseline from now until no
        such process is left."""
        if self.snapshot is None:
            self.snapshot = guard.snapshot(self.workspace)
        self.holders.add(holder)
        with contextlib.suppress(RuntimeError):  # no running loop: looked at by `settle` only
            loop = asyncio.get_running_loop()
            idle = self._idle
            if idle is None or idle.done() or idle.get_loop() is not loop:
                self._idle = loop.create_task(self._look_while_idle())

    def release(self, holder: object) -> None:
        self.holders.discard(holder)

    def lasting(self) -> bool:
        """True while a process that holds the baseline may still write (an MCP server: all session)."""
        return any(getattr(holder, "alive", True) for holder in list(self.holders))

    def look(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher()
            except Exception:  # a record that failed is logged, never a crash of the loop
                log.exception("a sandbox watcher failed")

    def settle(self) -> guard.Report:
        """Undo what changed in control files since the held baseline; let it go when no
        lasting process is left."""
        self.look()
        report = guard.Report(undone=list(self._unsaid))
        self._unsaid.clear()
        if self.snapshot is None:
            return report
        found = guard.restore(self.workspace, self.snapshot)
        report.undone += found.undone
        report.errors += found.errors
        if not self.lasting():
            self.snapshot = None
            self.holders.clear()
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
        if self.snapshot is not None:
            self.snapshot = guard.adopt(self.workspace, self.snapshot, rel)

    def close(self) -> None:
        """At the session's end, when every process it started is gone: a last look."""
        self.holders.clear()
        self.final_report = self.settle()
        if self.final_report:
            log.warning("at the session's end: %s", self.final_report.message())
        with contextlib.suppress(RuntimeError):
            if self._idle is not None and self._idle.get_loop() is asyncio.get_running_loop():
                self._idle.cancel()

    async def _look_while_idle(self) -> None:
        """While the baseline is held and no tool runs: look now and then, so a planted hook does
        not wait for the next tool call (the user may run git meanwhile)."""
        pause = GUARD_INTERVAL
        while self.snapshot is not None:
            await asyncio.sleep(pause)
            if self.snapshot is None:
                return
            if self._calls:
                continue
            began = time.monotonic()
            self.look()
            found = guard.restore(self.workspace, self.snapshot)
            pause = max(GUARD_INTERVAL, GUARD_SHARE * (time.monotonic() - began))
            self._unsaid += [f"{rel} (while no tool ran)" for rel in found.undone]
            if found.undone:
                log.warning("control files changed by a session process were put back: %s", found.undone)
