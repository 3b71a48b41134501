"""Stopping a server a test started."""

from __future__ import annotations

import subprocess
from typing import Protocol


class Stoppable(Protocol):
    """A started process: `subprocess.Popen`, or anything that is stopped the same way."""

    def terminate(self) -> None: ...
    def kill(self) -> None: ...
    def wait(self, timeout: float | None = None) -> int: ...


def stop(proc: Stoppable, timeout: float = 20) -> None:
    """SIGTERM, then SIGKILL if it has not ended within `timeout` seconds; reaped either way."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
