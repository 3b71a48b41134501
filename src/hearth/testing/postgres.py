"""A real PostgreSQL server for a test: initdb in a temporary folder, listening on 127.0.0.1 only.

Debian's `postgresql` package provides the binaries (CI installs it). Run as root, the server runs
as the `postgres` user (PostgreSQL refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from hearth.testing.processes import stop


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def available() -> bool:
    return _binary("initdb") is not None and _binary("postgres") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_postgres() -> Iterator[str]:
    """The URL of a fresh server (database `postgres`, user `postgres`, no password)."""
    initdb, postgres = _binary("initdb"), _binary("postgres")
    assert initdb and postgres
    folder = tempfile.mkdtemp(prefix="hearth-pg-")
    data = os.path.join(folder, "data")
    as_user: list[str] = []
    if os.geteuid() == 0:
        import pwd

        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_user, initdb, "-D", data, "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    port = _free_port()
    server = subprocess.Popen(
        [
            *as_user,
            postgres,
            "-D",
            data,
            "-p",
            str(port),
            "-h",
            "127.0.0.1",
            "-k",
            folder,
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    try:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
