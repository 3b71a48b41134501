"""Hearth as an MCP server: a toolset's tools offered to another agent.

Each call goes to a `Call` the runtime hands in (the session's Dispatcher, with
its sandbox, permission mode and rules, and no one to ask), so what a headless
run refuses is refused here too, with the reason, as a tool error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp import types
from mcp.server.lowlevel.server import Server

from hearth.tools.toolset import Toolset

Call = Callable[[str, dict[str, Any]], Awaitable[tuple[bool, str]]]


def hearth_server(toolset: Toolset, call: Call, version: str) -> Server[Any]:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(toolset, spec) for spec in toolset.specs()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        ok, text = await call(params.name, dict(params.arguments or {}))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=not ok)

    return Server("hearth", version=version, on_list_tools=list_tools, on_call_tool=call_tool)


def _tool(toolset: Toolset, spec: Any) -> types.Tool:
    tool = toolset.get(spec.name)
    read_only = bool(tool and tool.read_only)
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.parameters,
        annotations=types.ToolAnnotations(
            read_only_hint=read_only, destructive_hint=bool(tool and tool.destructive)
        ),
    )
