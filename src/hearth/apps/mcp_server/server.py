"""`hearth mcp-server`: Hearth's file, shell and git tools, and `run_task` (a whole
session, runtime/mcp_tasks), for another agent: over stdio, or Streamable HTTP at the
web server's `/mcp`, behind its login.

The same sandbox, permission mode and rules as a headless `hearth run` in the
workspace: one Dispatcher, no approver, so a call that would need a person is
refused with the reason. Not offered: MCP servers' own tools (no re-exporting).
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.lowlevel.server import Server

from hearth import __version__
from hearth.agent.dispatch import Dispatcher
from hearth.agent.policy import PermissionPolicy
from hearth.apps.mcp_server.tasks import NAME as TASK_NAME
from hearth.apps.mcp_server.tasks import TaskRunner, run_task_spec
from hearth.core.events import ToolResult
from hearth.core.types import ToolCall
from hearth.mcp.server import hearth_server
from hearth.runtime.config import Settings
from hearth.runtime.offer import default_toolset
from hearth.runtime.session import Runtime, check_workspace
from hearth.sandbox.budget import SessionCaps
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.runner import SandboxRunner
from hearth.tools.base import RunContext


def hearth_mcp(settings: Settings, runner: SandboxRunner, tasks: TaskRunner) -> Server[Any]:
    """The MCP server: the built-in tools through one Dispatcher (this sandbox, the settings'
    mode and rules, no approver), and `run_task` through `tasks`."""
    policy = PermissionPolicy.from_settings(
        settings.permissions.mode,
        settings.permissions.allow,
        settings.permissions.ask,
        settings.permissions.deny,
        sandboxed=runner.isolated,
        hides_secrets=runner.hides_secrets,
    )
    context = RunContext(
        paths=SafePaths(settings.workspace, secret_exceptions=policy.secret_exceptions()),
        session_id="mcp-server",
        sandbox=runner,
        network=settings.sandbox.network,
    )
    toolset = default_toolset()
    dispatcher = Dispatcher(toolset, policy, context, None, settings.agent.output_limit)
    ids = itertools.count(1)

    async def call(name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        if name == TASK_NAME:
            return await tasks.run(arguments)
        events = await dispatcher.dispatch(ToolCall(id=f"mcp-{next(ids)}", name=name, arguments=arguments))
        result = next(e for e in reversed(events) if isinstance(e, ToolResult))
        return result.ok, result.output

    return hearth_server(toolset, call, __version__, (run_task_spec(),))


Handler = Callable[[Any, Any, Any], Awaitable[None]]  # an ASGI app: (scope, receive, send)


async def serve_stdio(settings: Settings) -> None:
    from mcp.server.stdio import stdio_server

    check_workspace(settings.workspace)
    sandbox = await choose_sandbox(settings.sandbox.backend, settings.workspace, image=settings.sandbox.image)
    sandbox.runner.set_caps(
        SessionCaps(settings.sandbox.max_session_write_bytes, settings.sandbox.max_background_jobs)
    )
    tasks = TaskRunner(settings)
    try:
        server = hearth_mcp(settings, sandbox.runner, tasks)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await tasks.close()
        await sandbox.runner.close()


@asynccontextmanager
async def http_handler(rt: Runtime) -> AsyncIterator[Handler]:
    """The Streamable HTTP flavour, on an open runtime (the web server's): its sandbox, settings
    and model. Stateless: each request is complete in itself, so no MCP session outlives the
    login it came with. Mount it behind the web server's login; it checks nothing itself."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    tasks = TaskRunner(rt.settings, rt)
    manager = StreamableHTTPSessionManager(hearth_mcp(rt.settings, rt.sandbox.runner, tasks), stateless=True)
    async with manager.run():
        yield manager.handle_request
