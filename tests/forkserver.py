"""Start `hearth` for a test without paying for its imports each time.

The tests run the real command line about nine hundred times, and each start spent most of its
second importing the same modules. A fork server (one per test worker) imports them once; each
`hearth` a test runs is then a fork of it: its own process, with the test's arguments, environment,
working folder and standard streams, running `python -m hearth.apps.cli.main` exactly as a fresh
interpreter would (runpy, `__main__`, the same exit code, atexit handlers, and every program it
starts). What it shares with the server is only what importing left in memory.

A start falls back to a plain `subprocess.run` whenever a fork could differ from a fresh
interpreter: an environment whose `PYTHON...` variables differ from the server's (they take effect
only at interpreter start), or `HEARTH_TEST_EXEC=1` to check that every test passes without it.
Tests of start-up itself (import time, a fresh machine's missing parts) start their own `python`.

Run as a script, this file is the server: `python forkserver.py SOCKET`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import locale
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# What a `hearth run` imports: the server imports these once (the rest load in each fork as needed).
PRELOAD = (
    "hearth.apps.cli.main",
    "hearth.apps.cli.entry",
    "hearth.apps.cli.approve",
    "hearth.apps.cli.jsonl",
    "hearth.apps.cli.render",
    "hearth.runtime.reflection",
    "hearth.runtime.conversation",
    "hearth.history.continuation",
    "hearth.runtime.config",
    "hearth.sandbox.choice",
    "rich.console",
    "anyio._core._sockets",
    "anyio._core._streams",
)
_HEADER = struct.Struct("!q")


# -- the server ---------------------------------------------------------------------------------


def _recv_exact(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the client went away")
        data += chunk
    return data


def _child(conn: socket.socket, fds: list[int], request: dict[str, Any]) -> None:
    """In the fork: become the process `python -m MODULE ARGS` would have been."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    conn.close()
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(request["env"])
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    sys.path[0] = os.getcwd()  # what `python -m` puts first


def serve(path: str) -> tuple[str, list[str]] | None:
    """Answer start requests until the test worker goes away (our stdin closes). Returns, in a
    fork, the module and arguments it is to run; None in the server when it is done."""
    for name in PRELOAD:
        __import__(name)
    assert threading.active_count() == 1, "the fork server must not run threads"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(sys.stdin, selectors.EVENT_READ, "parent")
    import gc

    gc.collect()
    gc.freeze()  # the forks share the imported objects instead of copying them on collection
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        for key, _ in sel.select():
            if key.data == "parent":
                if not os.read(sys.stdin.fileno(), 4096):
                    return None
            elif key.data == "accept":
                conn, _ = listener.accept()
                started = _start(conn, listener, sel)
                if started is not None:
                    return started
            else:
                pid, conn = key.data
                sel.unregister(key.fileobj)
                os.close(key.fd)
                _, status = os.waitpid(pid, 0)
                conn.sendall(_HEADER.pack(os.waitstatus_to_exitcode(status)))
                conn.close()


def _start(
    conn: socket.socket, listener: socket.socket, sel: selectors.BaseSelector
) -> tuple[str, list[str]] | None:
    try:
        raw, fds, _, _ = socket.recv_fds(conn, _HEADER.size, 3)
        (size,) = _HEADER.unpack(raw)
        request = json.loads(_recv_exact(conn, size))
    except (OSError, ValueError, ConnectionError):
        conn.close()
        return None
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        for key in list(sel.get_map().values()):
            if isinstance(key.data, tuple):
                key.data[1].close()
                os.close(key.fd)
        sel.close()
        listener.close()
        _child(conn, fds, request)
        return str(request["module"]), list(request["args"])
    for fd in fds:
        os.close(fd)
    conn.sendall(_HEADER.pack(pid))
    sel.register(os.pidfd_open(pid), selectors.EVENT_READ, (pid, conn))
    return None


# -- the client ---------------------------------------------------------------------------------

MODULE = "hearth.apps.cli.main"


class _Server:
    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="hearth-fork-")
        self.socket = os.path.join(self.folder, "s")
        self.python_env = _python_vars(os.environ)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, self.socket],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=self.folder,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line != b"ready\n":
            raise RuntimeError(f"the fork server did not start (exit {self.proc.wait()})")
        atexit.register(self.close)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


_server: _Server | None = None
_server_lock = threading.Lock()


def _python_vars(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON")}


def _the_server() -> _Server:
    global _server
    with _server_lock:
        if _server is None or _server.proc.poll() is not None:
            _server = _Server()
        return _server


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path | str,
    timeout: float,
    module: str = MODULE,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([python, -m, module, *args], capture_output=True, text=True, ...)`,
    through the fork server when a fork is the same as a fresh start."""
    command = [sys.executable, "-m", module, *args]
    if os.environ.get("HEARTH_TEST_EXEC") == "1" or not os.path.isdir(cwd):
        return _exec(command, env, cwd, timeout, input)
    server = _the_server()
    if _python_vars(env) != server.python_env:
        return _exec(command, env, cwd, timeout, input)
    return _forked(server, command, module, env, cwd, timeout, input)


def _exec(
    command: list[str], env: Mapping[str, str], cwd: Path | str, timeout: float, input: str | None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, env=dict(env), cwd=cwd, timeout=timeout, input=input
    )


def _forked(
    server: _Server,
    command: list[str],
    module: str,
    env: Mapping[str, str],
    cwd: Path | str,
    timeout: float,
    input: str | None,
) -> subprocess.CompletedProcess[str]:
    deadline = time.monotonic() + timeout
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if input is not None else (os.dup(0), -1)
    request = json.dumps({"module": module, "args": command[3:], "env": dict(env), "cwd": str(cwd)})
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(server.socket)
        body = request.encode()
        socket.send_fds(conn, [_HEADER.pack(len(body))], [in_r, out_w, err_w])
        conn.sendall(body)
    finally:
        for fd in (in_r, out_w, err_w):
            os.close(fd)
    (pid,) = _HEADER.unpack(_recv_exact(conn, _HEADER.size))
    if in_w >= 0:
        threading.Thread(target=_feed, args=(in_w, (input or "").encode()), daemon=True).start()
    out, err, timed_out = _collect(out_r, err_r, deadline)
    if timed_out:
        _kill(pid)
    conn.settimeout(max(1.0, deadline - time.monotonic()) if not timed_out else 10)
    try:
        (code,) = _HEADER.unpack(_recv_exact(conn, _HEADER.size))
    except TimeoutError:
        _kill(pid)
        timed_out = True
        (code,) = _HEADER.unpack(_recv_exact(conn, _HEADER.size))
    finally:
        conn.close()
    stdout, stderr = _text(out), _text(err)
    if timed_out:
        raise subprocess.TimeoutExpired(command, timeout, stdout, stderr)
    return subprocess.CompletedProcess(command, code, stdout, stderr)


def _feed(fd: int, data: bytes) -> None:
    try:
        os.write(fd, data)
    except BrokenPipeError:
        pass
    finally:
        os.close(fd)


def _collect(out_r: int, err_r: int, deadline: float) -> tuple[bytes, bytes, bool]:
    """Both streams until they close (like `communicate`: programs the command left running
    that hold them keep them open), or the deadline."""
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    with selectors.DefaultSelector() as sel:
        for fd in chunks:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    sel.unregister(key.fd)
        timed_out = bool(sel.get_map())
    for fd in chunks:
        os.close(fd)
    return b"".join(chunks[out_r]), b"".join(chunks[err_r]), timed_out


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _text(data: bytes) -> str:
    """As `text=True` decodes: the locale's encoding, universal newlines."""
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


if __name__ == "__main__":
    _target = serve(sys.argv[1])
    if _target is not None:
        import runpy

        _module, _args = _target
        del _target
        sys.argv = [_module, *_args]
        runpy.run_module(_module, run_name="__main__", alter_sys=True)
