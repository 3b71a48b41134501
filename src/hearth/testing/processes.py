"""Stopping a server a test started."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen[bytes] | subprocess.Popen[str], timeout: float = 20) -> None:
    """SIGTERM, then SIGKILL if it has not ended within `timeout` seconds; reaped either way."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
