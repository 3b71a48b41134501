"""How a stdio server's process is started and spoken to.

Starting it is not this package's business: the runtime hands in a `Launcher`
that turns a server's command into a confined command line (the same sandbox
as `shell`), so this layer never imports the sandbox. Here: run that command
line with pipes, read one JSON-RPC message a line (a line past `MAX_LINE` is
dropped and reported, garbage is reported, neither ends the session), and on
close stop the whole process group, so nothing outlives the session.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from hearth.mcp.config import ServerConfig

if TYPE_CHECKING:  # the MCP SDK is slow to import: only a server that starts pays it
    from mcp.shared.message import SessionMessage

MAX_LINE = 4 << 20  # bytes in one message from a server
TERM_GRACE = 2.0


@dataclass
class Prepared:
    """A confined command line ready to start, and what to release once it has."""

    argv: list[str]
    env: dict[str, str]
    cwd: str | None = None
    pass_fds: tuple[int, ...] = ()
    log: Path | None = None  # where the server's stderr goes
    release: Callable[[], None] | None = None

    def close(self) -> None:
        if self.release is not None:
            self.release()
            self.release = None


Launcher = Callable[[ServerConfig], Prepared]
Streams = tuple[MemoryObjectReceiveStream[Any], MemoryObjectSendStream["SessionMessage"]]


@asynccontextmanager
async def stdio_transport(prepared: Prepared) -> AsyncIterator[Streams]:
    from mcp.shared.message import SessionMessage  # loaded already (client.load_sdk)

    errlog: Any = subprocess.DEVNULL
    if prepared.log is not None:
        prepared.log.parent.mkdir(parents=True, exist_ok=True)
        errlog = prepared.log.open("ab")
    try:
        # Shielded: cancelled half-way (a session that ends while a server starts), the process
        # would exist with no one holding it to stop it.
        with anyio.CancelScope(shield=True):
            process = await anyio.open_process(
                prepared.argv,
                env=prepared.env,
                cwd=prepared.cwd,
                stderr=errlog,
                start_new_session=True,
                pass_fds=prepared.pass_fds,
            )
    finally:
        prepared.close()
        if errlog is not subprocess.DEVNULL:
            errlog.close()
    to_session, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    to_server, from_session = anyio.create_memory_object_stream[SessionMessage](16)

    async def read() -> None:
        assert process.stdout is not None
        buffer = b""
        skipping = False
        async with to_session:
            with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for chunk in process.stdout:
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        if skipping:  # the tail of a line that was too long
                            skipping = False
                            continue
                        if line.strip():
                            await to_session.send(_parse(line))
                    if len(buffer) > MAX_LINE:
                        buffer, skipping = b"", True
                        await to_session.send(
                            ValueError(f"a message longer than {MAX_LINE} bytes was dropped")
                        )

    async def write() -> None:
        assert process.stdin is not None
        async with from_session:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for message in from_session:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(data.encode() + b"\n")

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            tg.start_soon(write)
            try:
                yield from_server, to_server
            finally:
                tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await stop_process(process)
            for stream in (from_server, to_server):
                await stream.aclose()


def _parse(line: bytes) -> SessionMessage | Exception:
    from mcp import types
    from mcp.shared.message import SessionMessage

    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return ValueError(
            f"the server printed something that is not a JSON-RPC message: {line[:120]!r} ({exc})"
        )


async def stop_process(process: anyio.abc.Process) -> None:
    """Close its input, then TERM and KILL its whole process group."""
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if process.returncode is not None:
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        with anyio.move_on_after(TERM_GRACE):
            await process.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # whatever it left behind in its group
    with contextlib.suppress(Exception):
        await process.aclose()
