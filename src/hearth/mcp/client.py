"""One connection per configured server, kept open for the session by its own task.

Servers start in the background (`McpServers.start` returns at once): a slow one never
delays the first prompt. Each has its `startup_timeout`; when it is ready its tools are
handed to `on_ready` (the runtime adds them to the session's tools). One that cannot
start, hangs, or lists tools with invalid schemas is reported (`Connection.problem`,
`McpServers.status`, `on_problem`) and the session goes on without it. Tool calls have
the server's `tool_timeout`. `McpServers.stop` ends every connection and its process.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from hearth.core.errors import ToolError
from hearth.mcp.config import ServerConfig
from hearth.mcp.transport import Launcher, stdio_transport

if TYPE_CHECKING:  # The MCP SDK (and jsonschema) take ~0.5 s to import: only sessions with servers pay it.
    from mcp import types
    from mcp.client.session import ClientSession

MAX_TOOLS_PAGES = 20


@dataclass
class ServerStatus:
    name: str
    transport: str
    state: str  # "starting" | "ready" | "failed" | "stopped"
    tools: int = 0
    problem: str = ""
    source: str = ""

    def line(self) -> str:
        what = f"{self.tools} tools" if self.state == "ready" else self.state
        return f"{self.name} ({self.transport}): {what}" + (f"; {self.problem}" if self.problem else "")


@dataclass
class Connection:
    config: ServerConfig
    launcher: Launcher
    state: str = "starting"
    problem: str = ""
    tools: list[types.Tool] = field(default_factory=list)
    started_ms: float = 0.0
    _session: ClientSession | None = None
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _loaded: asyncio.Event = field(default_factory=asyncio.Event)  # Hearth's import of the SDK done
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._main(), name=f"mcp-{self.config.name}")

    async def ready(self) -> bool:
        """Wait until it is ready, has failed, or its startup_timeout passed (then it is stopped).
        The timeout is the server's: it counts from when Hearth has its SDK loaded (imported in a
        thread, slow on a busy machine), not from when the session began."""
        if self._task is not None:
            await self._loaded.wait()
        try:
            await asyncio.wait_for(self._ready.wait(), self.config.startup_timeout)
        except TimeoutError:
            self._fail(f"did not start within {self.config.startup_timeout:g}s (startup_timeout)")
            self._ready.set()
            await self._cancel()
        return self.state == "ready"

    async def _main(self) -> None:
        begun = time.perf_counter()
        try:
            await asyncio.to_thread(load_sdk)  # not on the event loop: the first prompt goes on
            self._loaded.set()
            async with AsyncExitStack() as stack:
                from mcp.client.session import ClientSession

                read, write = await stack.enter_async_context(self._transport())
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                self.tools = await _list_tools(session)
                self._session = session
                self.state = "ready"
                self.started_ms = round((time.perf_counter() - begun) * 1000, 1)
                self._ready.set()
                await self._stop.wait()
        except BaseException as exc:  # whatever a server does, the session goes on
            if isinstance(exc, asyncio.CancelledError):
                if self.state == "starting":
                    self._fail("stopped while starting")
                raise
            if self.state == "ready" and self._stop.is_set():
                return
            self._fail(describe(exc))
        finally:
            self._session = None
            if self.state == "ready":
                self.state = "stopped"
            self._loaded.set()
            self._ready.set()

    def _fail(self, problem: str) -> None:
        self.state, self.problem = "failed", problem

    def _transport(self) -> contextlib.AbstractAsyncContextManager[Any]:
        if self.config.url:
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            client = create_mcp_http_client(headers=self.config.headers or None)
            return _http(streamable_http_client(self.config.url, http_client=client), client)
        return stdio_transport(self.launcher(self.config))

    async def call(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        session = self._session
        if session is None or self.state != "ready":
            raise ToolError(
                f"the MCP server {self.config.name!r} is not running ({self.problem or self.state}). "
                "Do the task without its tools."
            )
        timeout = self.config.tool_timeout
        try:
            with anyio.fail_after(timeout):
                return await session.call_tool(tool, arguments)
        except TimeoutError:
            raise ToolError(
                f"{tool} on the MCP server {self.config.name!r} did not answer within {timeout:g}s "
                "(its tool_timeout). Try again with a smaller request, or do it another way."
            ) from None
        except ToolError:
            raise
        except Exception as exc:
            raise ToolError(
                f"{tool} on the MCP server {self.config.name!r} failed: {describe(exc)}"
            ) from None

    async def stop(self) -> None:
        self._stop.set()
        task = self._task
        if task is None or task.done():
            return
        if self.state == "starting":  # nothing to close politely yet
            await self._cancel()
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), 10)
        except (TimeoutError, Exception):
            await self._cancel()

    async def _cancel(self) -> None:
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 10)

    def status(self) -> ServerStatus:
        return ServerStatus(
            self.config.name,
            self.config.transport,
            self.state,
            len(self.tools),
            self.problem,
            self.config.source,
        )


@contextlib.asynccontextmanager
async def _http(transport: contextlib.AbstractAsyncContextManager[Any], client: Any) -> Any:
    async with client, transport as streams:
        yield streams[0], streams[1]


def load_sdk() -> None:
    """Import the MCP SDK and jsonschema (about half a second), once a server is to start."""
    import jsonschema  # type: ignore[import-untyped]  # noqa: F401
    import mcp.client.session
    import mcp.shared.message  # noqa: F401


async def _list_tools(session: ClientSession) -> list[types.Tool]:
    from mcp import types

    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(MAX_TOOLS_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def describe(exc: BaseException) -> str:
    """One line for an error, found inside exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


class McpServers:
    """The session's servers: started together in the background, listed for status, stopped
    together. `on_ready(conn)` runs as each becomes ready; `on_problem(line)` as each fails to."""

    def __init__(
        self, configs: list[ServerConfig], launcher: Launcher, notes: list[str] | None = None
    ) -> None:
        self.connections = [Connection(c, launcher) for c in configs if c.enabled]
        self.disabled = [c.name for c in configs if not c.enabled]
        self.notes = list(notes or [])  # e.g. a workspace's servers waiting for approval
        self.on_ready: Callable[[Connection], None] | None = None
        self.on_problem: Callable[[str], None] | None = None
        self.on_settled: Callable[[Connection], None] | None = None
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._stopping = False

    def start(self) -> None:
        """Start every server; return at once (each becomes ready or fails on its own)."""
        for conn in self.connections:
            conn.start()
            self._watchers[conn.config.name] = asyncio.create_task(
                self._watch(conn), name=f"mcp-watch-{conn.config.name}"
            )

    async def _watch(self, conn: Connection) -> None:
        if await conn.ready() and self.on_ready is not None:
            try:
                self.on_ready(conn)
            except Exception as exc:  # a bug adding its tools costs this server, not the session
                conn._fail(f"its tools could not be added ({describe(exc)})")
        if self.on_settled is not None:
            self.on_settled(conn)
        if conn.state == "failed" and self.on_problem is not None and not self._stopping:
            self.on_problem(conn.status().line())  # (stopped with the session is no failure to report)

    async def settled(self, name: str | None = None, timeout: float | None = None) -> None:
        """Wait until every server (or the one named) is ready or has failed, at most `timeout`s."""
        tasks = [t for n, t in self._watchers.items() if name is None or n == name]
        if tasks:
            await asyncio.wait([asyncio.ensure_future(asyncio.shield(t)) for t in tasks], timeout=timeout)

    def get(self, name: str) -> Connection | None:
        return next((c for c in self.connections if c.config.name == name), None)

    def status(self) -> list[ServerStatus]:
        out = [conn.status() for conn in self.connections]
        out += [ServerStatus(name, "", "disabled") for name in self.disabled]
        return out

    def lines(self) -> list[str]:
        return [s.line() for s in self.status()] + self.notes

    def problems(self) -> list[str]:
        """What a person should hear about: servers that failed, and notes (e.g. awaiting approval)."""
        return [s.line() for s in self.status() if s.state == "failed"] + self.notes

    async def stop(self) -> None:
        self._stopping = True
        await asyncio.gather(*(conn.stop() for conn in self.connections))
        for task in self._watchers.values():
            task.cancel()
        await asyncio.gather(*self._watchers.values(), return_exceptions=True)
