"""`hearth mcp list|add|remove|test|approve`: the MCP servers Hearth starts with each session."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings
from hearth.core.errors import HearthError

if TYPE_CHECKING:
    from hearth.mcp.client import ServerStatus
    from hearth.runtime.config import Settings

mcp_app = typer.Typer(help="MCP servers whose tools Hearth uses.", no_args_is_help=True)


def _workspace(workspace: Path | None) -> Path:
    return load_cli_settings(workspace=workspace).settings.workspace


@mcp_app.command("list")
def list_servers(workspace: WorkspaceOpt = None) -> None:
    """The configured servers: the user's, and the workspace's (started only once approved)."""
    from hearth.mcp.config import read_servers, workspace_servers
    from hearth.mcp.coverage import review_lines
    from hearth.runtime.mcp_servers import approval_problem, user_mcp_file

    try:
        ws = _workspace(workspace)
        user = read_servers(user_mcp_file())
        local = workspace_servers(ws)
        problem = approval_problem(ws)
    except HearthError as exc:
        fail(exc)
    if not user and not local:
        print(f"No MCP servers (add one with `hearth mcp add`; the list lives in {user_mcp_file()}).")
    for server in user:
        state = "" if server.enabled else "  (disabled)"
        print(f"{server.name:<16} {server.transport:<5} {server.describe()}{state}")
    for server in local:
        state = f"NOT STARTED: {problem}" if problem else "workspace, approved"
        lines = review_lines(ws, server)
        print(f"{lines[0]}  ({state})")
        print("\n".join(lines[1:]))


@mcp_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The server's name (tools are mcp__NAME__tool)")],
    command: Annotated[
        list[str] | None, typer.Argument(help="The command and its arguments (after --)")
    ] = None,
    url: Annotated[str, typer.Option("--url", help="A Streamable HTTP server's address instead")] = "",
    env: Annotated[list[str] | None, typer.Option("--env", help="KEY=VALUE for the server")] = None,
    network: Annotated[
        bool, typer.Option("--network", help="Let the sandboxed server use the network")
    ] = False,
    tool_timeout: Annotated[
        float | None, typer.Option("--tool-timeout", help="Seconds per tool call")
    ] = None,
) -> None:
    """Add (or replace) a server in your own mcp.json: `hearth mcp add time -- uvx mcp-server-time`."""
    from hearth.mcp.config import edit_user_file
    from hearth.runtime.mcp_servers import user_mcp_file

    entry: dict[str, object] = {"url": url} if url else {}
    if command:
        entry.update(command=command[0], args=command[1:])
    if env:
        pairs = [e.split("=", 1) for e in env]
        if any(len(p) != 2 for p in pairs):
            fail(HearthError("--env takes KEY=VALUE.", "For example --env TOKEN=abc."))
        entry["env"] = dict(pairs)
    if network:
        entry["network"] = True
    if tool_timeout is not None:
        entry["tool_timeout"] = tool_timeout
    try:
        edit_user_file(user_mcp_file(), name, entry)
    except HearthError as exc:
        fail(exc)
    print(f"Added {name} to {user_mcp_file()}.")


@mcp_app.command("remove")
def remove(name: Annotated[str, typer.Argument(help="The server to remove")]) -> None:
    """Remove a server from your own mcp.json."""
    from hearth.mcp.config import edit_user_file
    from hearth.runtime.mcp_servers import user_mcp_file

    try:
        removed = edit_user_file(user_mcp_file(), name, None)
    except HearthError as exc:
        fail(exc)
    if not removed:
        fail(HearthError(f"No server {name!r} in {user_mcp_file()}.", "See `hearth mcp list`."))
    print(f"Removed {name}.")


@mcp_app.command("approve")
def approve(
    folder: Annotated[Path | None, typer.Argument(help="The workspace (default: the current one)")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask (for scripts)")] = False,
) -> None:
    """Let a workspace's .hearth/mcp.json and .mcp.json start their servers (as they are now)."""
    from hearth.apps.cli.trust import ask_at_terminal
    from hearth.mcp.config import workspace_files, workspace_servers
    from hearth.mcp.coverage import review_lines
    from hearth.runtime.mcp_servers import approval_fingerprint, approvals

    try:
        ws = (folder or _workspace(None)).resolve()
        files = workspace_files(ws)
        if not files:
            print(f"{ws} has no .hearth/mcp.json or .mcp.json.")
            return
        before = approval_fingerprint(ws)  # a folder too large to fingerprint stops here
        servers = workspace_servers(ws)
        print(f"{ws} would start these MCP servers (each a program run in the sandbox):")
        for server in servers:
            print("\n".join("  " + line for line in review_lines(ws, server)))
        if not yes and not ask_at_terminal("Approve them?"):
            print("Not approved.")
            return
        if approval_fingerprint(ws) != before:
            fail(HearthError("The files changed while you were asked.", "Run `hearth mcp approve` again."))
        approvals().record(ws, before, [s.name for s in servers])
    except HearthError as exc:
        fail(exc)
    names = ", ".join(f.name for f in files)
    print(f"Approved; a change to {names} or to a file its servers run needs a new approval.")


@mcp_app.command("test")
def test(
    name: Annotated[str, typer.Argument(help="The server to start")],
    workspace: WorkspaceOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Start one configured server in the sandbox, list its tools, and stop it."""
    try:
        loaded = load_cli_settings(workspace=workspace)
        status, tools = asyncio.run(_test(loaded.settings, name))
    except HearthError as exc:
        fail(exc)
    if as_json:
        print(json.dumps({"server": name, "state": status.state, "problem": status.problem, "tools": tools}))
    else:
        print(status.line())
        for tool in tools:
            print(f"  {tool}")
    if status.state != "ready":
        raise typer.Exit(1)


async def _test(settings: Settings, name: str) -> tuple[ServerStatus, list[str]]:
    from hearth.mcp.client import McpServers
    from hearth.mcp.tools import mcp_tools
    from hearth.runtime.mcp_servers import configured_servers, sandbox_launcher
    from hearth.sandbox.choice import choose_sandbox

    sandbox = await choose_sandbox(settings.sandbox.backend, settings.workspace, image=settings.sandbox.image)
    configs, notes = configured_servers(settings.workspace, isolated=sandbox.runner.isolated)
    chosen = [c for c in configs if c.name == name]
    if not chosen:
        await sandbox.runner.close()
        raise HearthError(
            f"No MCP server {name!r} would start here. {' '.join(notes)}", "See `hearth mcp list`."
        )
    servers = McpServers(chosen, sandbox_launcher(sandbox.runner, settings.workspace))
    try:
        servers.start()
        await servers.settled()
        conn = servers.connections[0]
        tools, problems = mcp_tools(conn, lambda _: False) if conn.state == "ready" else ([], [])
        lines = [f"{t.name}{'  (read-only)' if t.read_only else ''}" for t in tools] + problems
        return conn.status(), lines
    finally:
        await servers.stop()
        await sandbox.runner.close()


def mcp_server(workspace: WorkspaceOpt = None) -> None:
    """Serve Hearth's file, shell and git tools over MCP (stdio), sandboxed like a headless run."""
    from hearth.apps.mcp_server.server import serve_stdio

    try:
        loaded = load_cli_settings(workspace=workspace)
        asyncio.run(serve_stdio(loaded.settings))
    except HearthError as exc:
        fail(exc)
