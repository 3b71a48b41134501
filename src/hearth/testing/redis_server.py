"""A real Redis server for a benchmark or test: in memory only, listening on 127.0.0.1.

Debian's `redis-server` package provides the binary (CI installs it). Hearth's own queue does not
use Redis; `bench/queue_engines.py` measures Redis-backed queues (RQ, huey) against the engine
Hearth chose (PostgreSQL through procrastinate).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from hearth.testing.processes import stop


def available() -> bool:
    return shutil.which("redis-server") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def running_redis() -> Iterator[str]:
    """The URL of a fresh server (database 0, no password, nothing saved to disk)."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is not installed (apt-get install redis-server)"
    folder = tempfile.mkdtemp(prefix="hearth-redis-")
    port = _free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", folder, "--daemonize", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while not _answers(port):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on 127.0.0.1:{port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
