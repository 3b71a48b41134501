"""A command's clean-up that runs after it (removing its cgroup) never prints a traceback."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path

import pytest

from hearth.sandbox.confined import ProcessBackend
from hearth.sandbox.limits import ResourceLimits
from hearth.sandbox.runner import SandboxRunner


class HeldGroup:
    """A cgroup the kernel will not let go of (or the thread pool gone as the interpreter exits)."""

    active = True

    def remove(self) -> None:
        raise RuntimeError("cannot schedule new futures after interpreter shutdown")


def test_a_failed_cleanup_nobody_awaits_is_logged_not_printed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        runner = SandboxRunner(ProcessBackend(tmp_path, ResourceLimits()), spares=False)
        runner._remove(HeldGroup())  # type: ignore[arg-type]
        while runner._removing:  # it failed, and the runner is never closed: the process exits
            await asyncio.sleep(0.01)

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main())
        gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    assert any("clean-up after a command failed" in r.getMessage() for r in caplog.records)
