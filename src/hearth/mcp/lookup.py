"""`mcp_tools`: what the MCP servers offer, without putting every schema in every request.

A server whose tools fit the session's budget has them listed in full; the tools of the
others are unlisted (`Tool.listed` False) and summarised in this tool's description, one
line a server. Asking for a server or for tools by name returns their parameters, and the
tools it names join the tool list from the next request (`Tool.reveals`). The description
is built from the servers' live state, so a server still starting says so, and a call
waits (up to its startup_timeout) for the servers it asks about.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from hearth.core.errors import ToolError
from hearth.core.types import ToolSpec
from hearth.mcp.client import McpServers
from hearth.mcp.tools import McpTool
from hearth.prompts import render
from hearth.tools.base import RunContext, Tool, ToolInput, input_schema, signature
from hearth.tools.toolset import Toolset

NAME = "mcp_tools"
MAX_NAMES = 240  # characters of tool names a server gets in the description
MAX_DETAILED = 25  # tools described with their parameters in one answer
# seconds an overview waits for servers still starting: a Python MCP server started while two
# processors were busy took over 15 s, and a server answered as "starting" is lost to the model
WAIT = 30.0


class LookupInput(ToolInput):
    """Look up the tools of MCP servers."""

    server: str | None = None
    tools: list[str] | None = None


@dataclass(frozen=True)
class McpLookup(Tool):
    describe: Callable[[], str] = field(default=lambda: NAME)

    @property
    def description(self) -> str:
        return self.describe()

    def spec(self) -> ToolSpec:
        return ToolSpec(name=self.name, description=self.description, parameters=input_schema(LookupInput))


def lookup_tool(servers: McpServers, toolset: Toolset) -> McpLookup:
    def describe() -> str:
        return render(
            "mcp_lookup",
            servers="; ".join(_brief(servers, toolset, c.config.name) for c in servers.connections),
        )

    async def run(args: LookupInput, ctx: RunContext) -> str:
        if args.server:
            return await _server(servers, toolset, args.server)
        if args.tools:
            return await _named(servers, toolset, args.tools)
        await servers.settled(timeout=WAIT)
        return "\n".join(_overview(servers, toolset, c.config.name) for c in servers.connections)

    return McpLookup(
        name=NAME,
        input_model=LookupInput,
        execute=run,
        read_only=True,
        reveals=True,
        describe=describe,
    )


def _tools_of(toolset: Toolset, server: str) -> list[McpTool]:
    return [t for t in toolset if isinstance(t, McpTool) and t.server == server]


def _brief(servers: McpServers, toolset: Toolset, server: str) -> str:
    """One server in the description: its state, or its tools' names (unless listed in full)."""
    conn = servers.get(server)
    if conn is None or conn.state != "ready":
        return f"{server} ({conn.state if conn else 'unknown'})"
    tools = _tools_of(toolset, server)
    if all(t.listed for t in tools):
        return f"{server} ({len(tools)} tools, listed)"
    names: list[str] = []
    used = 0
    for tool in tools:
        if used + len(tool.remote_name) > MAX_NAMES:
            names.append(f"{len(tools) - len(names)} more")
            break
        names.append(tool.remote_name)
        used += len(tool.remote_name) + 2
    return f"{server} ({len(tools)} tools: {', '.join(names)})"


def _overview(servers: McpServers, toolset: Toolset, server: str) -> str:
    conn = servers.get(server)
    assert conn is not None
    if conn.state != "ready":
        return f"{server}: {conn.state}{'; ' + conn.problem if conn.problem else ''}"
    lines = [f"{server}: {len(_tools_of(toolset, server))} tools (ask with server={server!r} or tools=[...])"]
    lines += [f"  {t.remote_name}: {t.summary}" for t in _tools_of(toolset, server)]
    return "\n".join(lines)


async def _server(servers: McpServers, toolset: Toolset, server: str) -> str:
    conn = servers.get(server)
    if conn is None:
        known = ", ".join(c.config.name for c in servers.connections)
        raise ToolError(f"there is no MCP server {server!r}; the servers are: {known}.")
    await servers.settled(server)
    if conn.state != "ready":
        raise ToolError(f"the MCP server {server!r} is {conn.state}: {conn.problem}. Do without it.")
    return _detailed(_tools_of(toolset, server))


async def _named(servers: McpServers, toolset: Toolset, wanted: list[str]) -> str:
    found = _find(toolset, wanted)
    if len(found) < len(set(wanted)):
        await servers.settled(timeout=WAIT)  # perhaps on a server still starting
        found = _find(toolset, wanted)
    missing = [w for w in wanted if not any(w in (t.name, t.remote_name) for t in found)]
    if not found:
        raise ToolError(
            f"no MCP tool is named {', '.join(missing)}. Call {NAME} with no arguments to list them."
        )
    text = _detailed(found)
    if missing:
        text += f"\n\nNot found: {', '.join(missing)}."
    return text


def _find(toolset: Toolset, wanted: list[str]) -> list[McpTool]:
    names = set(wanted)
    return [t for t in toolset if isinstance(t, McpTool) and (t.name in names or t.remote_name in names)]


def _detailed(tools: list[McpTool]) -> str:
    parts = []
    for tool in tools[:MAX_DETAILED]:
        parts.append(f"{signature(tool)}: {tool.summary}")
        if _nested(tool.schema):
            parts.append("  parameters: " + json.dumps(tool.schema, separators=(",", ":")))
    if len(tools) > MAX_DETAILED:
        rest = ", ".join(t.remote_name for t in tools[MAX_DETAILED:])
        parts.append(f"(and {len(tools) - MAX_DETAILED} more: {rest}; ask for them with tools=[...])")
    return render("mcp_lookup_result", tools="\n".join(parts))


def _nested(schema: dict[str, object]) -> bool:
    """Whether the one-line signature leaves something out (objects, arrays, enums)."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return False
    return any(
        isinstance(p, dict) and (p.get("type") in ("object", "array") or "enum" in p or "anyOf" in p)
        for p in props.values()
    )
