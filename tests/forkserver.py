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
`run` stands for `subprocess.run`, `popen` for `subprocess.Popen` (what the tests use of it).

Run as a script, this file is the server: `python forkserver.py SOCKET`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import locale
import os
import select
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
from typing import IO, Any, Union

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
    if request.get("setsid"):
        os.setsid()
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
    timeout: float,
    cwd: Path | str | None = None,
    module: str = MODULE,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([python, -m, module, *args], capture_output=True, text=True, ...)`,
    through the fork server when a fork is the same as a fresh start."""
    command = [sys.executable, "-m", module, *args]
    cwd = os.getcwd() if cwd is None else cwd
    server = _server_for(env, cwd)
    if server is None:
        return _exec(command, env, cwd, timeout, input)
    return _forked(server, command, module, env, cwd, timeout, input)


def _server_for(env: Mapping[str, str], cwd: Path | str) -> _Server | None:
    """The fork server, when a fork is the same as a fresh start for this environment and folder."""
    if os.environ.get("HEARTH_TEST_EXEC") == "1" or not os.path.isdir(cwd):
        return None
    server = _the_server()
    return server if _python_vars(env) == server.python_env else None


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
    try:
        conn, pid = _request(server, module, command[3:], env, cwd, [in_r, out_w, err_w])
    finally:
        for fd in (in_r, out_w, err_w):
            os.close(fd)
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


def _request(
    server: _Server,
    module: str,
    args: Sequence[str],
    env: Mapping[str, str],
    cwd: Path | str,
    fds: list[int],
    new_session: bool = False,
) -> tuple[socket.socket, int]:
    """Ask the server for a fork running `module` with these standard streams; the connection
    the exit code will come on, and the fork's pid."""
    request = {"module": module, "args": list(args), "env": dict(env), "cwd": str(cwd), "setsid": new_session}
    body = json.dumps(request).encode()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(server.socket)
    socket.send_fds(conn, [_HEADER.pack(len(body))], fds)
    conn.sendall(body)
    (pid,) = _HEADER.unpack(_recv_exact(conn, _HEADER.size))
    return conn, pid


class Forked:
    """What `subprocess.Popen` gives for a command started through the fork server: `pid`,
    `returncode`, `stdout`/`stderr` where they are pipes, `poll`, `wait`, `communicate`,
    `send_signal`, `terminate`, `kill`."""

    def __init__(
        self, args: list[str], conn: socket.socket, pid: int, stdout: IO[Any] | None, stderr: IO[Any] | None
    ) -> None:
        self.args, self.pid, self.stdout, self.stderr = args, pid, stdout, stderr
        self.returncode: int | None = None
        self._conn = conn
        self._readers: list[threading.Thread] | None = None  # communicate's, once started
        self._read: dict[int, Any] = {}

    def _exit_code(self, timeout: float | None) -> int | None:
        if self.returncode is None:
            ready, _, _ = select.select([self._conn], [], [], timeout)
            if not ready:
                return None
            (self.returncode,) = _HEADER.unpack(_recv_exact(self._conn, _HEADER.size))
            self._conn.close()
        return self.returncode

    def poll(self) -> int | None:
        return self._exit_code(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._exit_code(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return code

    def communicate(self, timeout: float | None = None) -> tuple[Any, Any]:
        """Both piped streams to their end, then the exit; `TimeoutExpired` after `timeout`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if self._readers is None:
            self._readers = [
                threading.Thread(target=self._read_all, args=(i, f), daemon=True)
                for i, f in enumerate((self.stdout, self.stderr))
                if f is not None
            ]
            for thread in self._readers:
                thread.start()
        for thread in self._readers:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        self.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return self._read.get(0), self._read.get(1)

    def _read_all(self, index: int, stream: IO[Any]) -> None:
        self._read[index] = stream.read()
        stream.close()

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # not yet reaped by the server: the pid is still the fork's
            _signal(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


Process = Union["Forked", "subprocess.Popen[Any]"]  # what `popen` gives


def popen(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    stdout: int | IO[Any] | None = None,
    stderr: int | IO[Any] | None = None,
    cwd: Path | str | None = None,
    text: bool = False,
    start_new_session: bool = False,
    module: str = MODULE,
) -> Process:
    """`subprocess.Popen([python, -m, module, *args], ...)` (stdin inherited), through the fork
    server when a fork is the same as a fresh start."""
    command = [sys.executable, "-m", module, *args]
    folder = os.getcwd() if cwd is None else cwd
    server = _server_for(env, folder)
    if server is None:
        return subprocess.Popen(
            command, env=dict(env), stdout=stdout, stderr=stderr, cwd=cwd, text=text,
            start_new_session=start_new_session,
        )  # fmt: skip
    ours: list[int] = []  # descriptors made here, closed once the fork has its own
    out_fd, out_file = _stream(stdout, 1, ours, text)
    err_fd, err_file = (out_fd, None) if stderr == subprocess.STDOUT else _stream(stderr, 2, ours, text)
    try:
        conn, pid = _request(server, module, args, env, folder, [0, out_fd, err_fd], start_new_session)
    finally:
        for fd in ours:
            os.close(fd)
    return Forked(command, conn, pid, out_file, err_file)


def _stream(
    target: int | IO[Any] | None, inherited: int, ours: list[int], text: bool
) -> tuple[int, IO[Any] | None]:
    """The descriptor the fork gets for one output stream, and the file this process reads it
    from when it is a pipe."""
    if target is None:
        return inherited, None
    if target == subprocess.DEVNULL:
        fd = os.open(os.devnull, os.O_WRONLY)
        ours.append(fd)
        return fd, None
    if target == subprocess.PIPE:
        read, write = os.pipe()
        ours.append(write)
        return write, open(read, encoding=locale.getpreferredencoding(False)) if text else open(read, "rb")
    if isinstance(target, int):
        return target, None
    return target.fileno(), None


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _feed(fd: int, data: bytes) -> None:
    try:
        os.write(fd, data)
    except BrokenPipeError:
        pass  # the command did not read all its input: as with Popen, not an error
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
    _signal(pid, signal.SIGKILL)


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
        # run afresh as __main__, as `python -m` does: the server's imported copy stays out of it
        # (runpy warns on stderr when the module it is to run is already imported)
        sys.modules.pop(_module, None)
        runpy.run_module(_module, run_name="__main__", alter_sys=True)
