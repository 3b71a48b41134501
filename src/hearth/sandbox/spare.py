"""A command's launcher, started ahead of the command while the model thinks.

Starting a command the plain way costs two extra programs before the backend (a shell
that joins the command's cgroup, then `prlimit`), because the cgroup and the rlimits must
hold from the command's first instruction. A spare launcher pays that before the command
is known: `helper.py --wait` is started in a new session with the output pipe the
command will use, the runner puts it in a fresh cgroup and under the rlimits (spare.py's
`make`, off the event loop), and it then waits on a socket. When the command comes, one
message (its command line, environment and descriptors) turns the spare into the backend:
an exec of bwrap, or the helper itself run in place for Landlock and the process runner
(so their interpreter start is off the command's path too). Everything the command starts
inherits the cgroup and rlimits the spare already had.

A spare serves one command, with the runner's default limits and no stdin; the rest (a
command past the write budget, the `python` tool's interpreter, a command whose descriptors
do not fit one message) starts the plain way.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hearth.sandbox.confined import HELPER
from hearth.sandbox.limits import ProcessGroup, ResourceLimits

MAX_FDS = 250  # one message carries at most the kernel's SCM_MAX_FD (253)
MAX_MESSAGE = 150_000  # under a Unix socket's default send buffer (about 208 KB)


@dataclass(eq=False)
class Spare:
    process: asyncio.subprocess.Process
    group: ProcessGroup
    sock: socket.socket

    @classmethod
    async def make(cls, limits: ResourceLimits, *, line_limit: int) -> Spare:
        """A waiting launcher in its own cgroup, under `limits`. OSError: none could be made
        (the runner then starts commands the plain way)."""
        group = await asyncio.to_thread(ProcessGroup.create, limits)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-I",
                "-S",
                str(HELPER),
                "--wait",
                str(theirs.fileno()),
                limit=line_limit,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env={},
                start_new_session=True,
                pass_fds=(theirs.fileno(),),
            )
        except BaseException:
            ours.close()
            await asyncio.to_thread(group.remove)
            raise
        finally:
            theirs.close()
        spare = cls(process, group, ours)
        try:
            await asyncio.to_thread(group.enter, process.pid)
        except BaseException:
            await spare.discard()
            raise
        return spare

    @staticmethod
    def fits(argv: Sequence[str], env: Mapping[str, str], fds: Sequence[int]) -> bool:
        return len(fds) <= MAX_FDS and len(_message(argv, env, fds)) <= MAX_MESSAGE

    def become(
        self, argv: Sequence[str], env: Mapping[str, str], fds: Sequence[int]
    ) -> asyncio.subprocess.Process:
        """Hand the spare its command (the descriptors keep their numbers in it); the process
        that runs it. The caller still owns and closes `fds`."""
        try:
            socket.send_fds(self.sock, [_message(argv, env, fds)], list(fds))
        finally:
            self.sock.close()
        return self.process

    async def discard(self) -> None:
        """No command for it: it is killed (it holds nothing) and its cgroup removed."""
        self.sock.close()
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), timeout=5)
        if self.process.stdout is not None:
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(self.process.stdout.read(), timeout=2)
        await asyncio.to_thread(self.group.remove)

    def drop(self) -> None:
        """`discard` from outside the event loop it was made in (a self-test's): it is killed
        (its socket's end alone would make it exit) and its cgroup removed, blocking."""
        self.sock.close()
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, 9)
        self.group.remove()


def _message(argv: Sequence[str], env: Mapping[str, str], fds: Sequence[int]) -> bytes:
    fields = [str(len(argv)), *argv, str(len(env)), *(f"{k}={v}" for k, v in env.items())]
    fields += [str(fd) for fd in fds]
    return b"\0".join(f.encode("utf-8", "surrogateescape") for f in fields)
