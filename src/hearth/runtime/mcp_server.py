"""`hearth mcp-server`: Hearth's file, shell and git tools for another agent, over stdio.

The same sandbox, permission mode and rules as a headless `hearth run` in the
workspace: one Dispatcher, no approver, so a call that would need a person is
refused with the reason. Not offered: MCP servers' own tools (no re-exporting).
"""

from __future__ import annotations

import itertools
from typing import Any

from hearth import __version__
from hearth.agent.dispatch import Dispatcher
from hearth.agent.policy import PermissionPolicy
from hearth.core.events import ToolResult
from hearth.core.types import ToolCall
from hearth.mcp.server import hearth_server
from hearth.runtime.config import Settings
from hearth.runtime.session import check_workspace, default_toolset
from hearth.sandbox.budget import SessionCaps
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext


async def serve_stdio(settings: Settings) -> None:
    from mcp.server.stdio import stdio_server

    check_workspace(settings.workspace)
    sandbox = await choose_sandbox(settings.sandbox, settings.workspace, image=settings.sandbox_image)
    sandbox.runner.set_caps(SessionCaps(settings.max_session_write_bytes, settings.max_background_jobs))
    try:
        policy = PermissionPolicy.from_settings(
            settings.permission_mode,
            settings.allow,
            settings.ask,
            settings.deny,
            sandboxed=sandbox.runner.isolated,
        )
        context = RunContext(
            paths=SafePaths(settings.workspace, secret_exceptions=policy.secret_exceptions()),
            session_id="mcp-server",
            sandbox=sandbox.runner,
            network=settings.network,
        )
        toolset = default_toolset()
        dispatcher = Dispatcher(toolset, policy, context, None, settings.output_limit)
        ids = itertools.count(1)

        async def call(name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
            events = await dispatcher.dispatch(
                ToolCall(id=f"mcp-{next(ids)}", name=name, arguments=arguments)
            )
            result = next(e for e in reversed(events) if isinstance(e, ToolResult))
            return result.ok, result.output

        server = hearth_server(toolset, call, __version__)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await sandbox.runner.close()
