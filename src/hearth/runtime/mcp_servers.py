"""The session's MCP servers: which ones (the user's file, and a workspace's once approved),
how their commands run (inside the session's sandbox, like `shell`), and their tools.

A workspace's `.hearth/mcp.json` and `.mcp.json` are approved with `hearth mcp approve`:
the same trust record as `hearth trust` (runtime.trust), in its own file in the user's
config folder, over a fingerprint of those files' content and of every workspace file their
servers can run (mcp/coverage.py: `python3 tools/srv.py` covers `tools/srv.py` and the code
beside it), so a change (by the model, or a `git pull`) needs a new approval before anything
they name is started. The approval shows everything the fingerprint covers (`review_lines` in
mcp/coverage.py): command, args, cwd, env and headers (values that look secret masked), and the
files. Without an isolating
sandbox (the process runner) nothing that runs workspace code starts: not a workspace's
servers, approved or not, nor a user's server whose command runs a workspace file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
from pathlib import Path

from hearth.core.errors import ConfigError
from hearth.core.protocols import ExecSpec
from hearth.mcp.client import Connection, McpServers
from hearth.mcp.config import (
    ServerConfig,
    read_servers,
    workspace_files,
    workspace_fingerprint,
    workspace_servers,
)
from hearth.mcp.coverage import covered_files
from hearth.mcp.lookup import lookup_tool
from hearth.mcp.tools import mcp_tools
from hearth.mcp.transport import Launcher, Prepared
from hearth.runtime.config import state_dir, user_config_path
from hearth.runtime.trust import TrustStore
from hearth.sandbox.runner import SandboxRunner
from hearth.tools.toolset import Toolset

APPROVALS_FILE = "approved-mcp-workspaces.json"
ENV_NAME = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"


def user_mcp_file() -> Path:
    return user_config_path().parent / "mcp.json"


def approvals() -> TrustStore:
    return TrustStore(user_config_path().parent / APPROVALS_FILE)


def approval_fingerprint(workspace: Path) -> str:
    """Changes when the workspace's MCP files change, or any workspace file their servers run."""
    digest = hashlib.sha256(workspace_fingerprint(workspace).encode())
    for server in workspace_servers(workspace):
        digest.update(f"\0{server.name}\0{covered_files(workspace, server).digest()}".encode())
    return digest.hexdigest()


def approval_problem(workspace: Path) -> str | None:
    """None when the workspace has no MCP files or they are approved as they are now."""
    files = workspace_files(workspace)
    if not files:
        return None
    store = approvals()
    if store.inside(workspace):
        return f"the approval list {store.path} is inside this workspace, so it cannot vouch for it"
    record = store.get(workspace)
    names = ", ".join(str(f.relative_to(workspace)) for f in files)
    if record is None:
        return f"{names} not approved: review it and run `hearth mcp approve {workspace}`"
    try:
        now = approval_fingerprint(workspace)
    except ConfigError as exc:
        return f"{exc.message} {exc.hint}".strip()
    if record.fingerprint != now:
        return (
            f"{names}, or a workspace file its servers run, changed since approved: review it and "
            f"run `hearth mcp approve {workspace}` again"
        )
    return None


def approve(workspace: Path) -> list[ServerConfig]:
    """Record the workspace's MCP files, and the files their servers run, as they are now."""
    servers = workspace_servers(workspace)
    approvals().record(workspace, approval_fingerprint(workspace), [s.name for s in servers])
    return servers


def configured_servers(workspace: Path, *, isolated: bool = True) -> tuple[list[ServerConfig], list[str]]:
    """The servers to start (a workspace's override the user's of the same name) and notes.

    Without an isolating sandbox (`isolated` false) nothing that runs workspace code starts:
    the workspace's servers, approved or not, and the user's whose command runs a workspace file."""
    servers = {s.name: s for s in read_servers(user_mcp_file())}
    notes: list[str] = []
    if not isolated:
        if workspace_files(workspace):
            notes.append(UNISOLATED_NOTE.format(what="workspace MCP servers"))
        for name, server in list(servers.items()):
            if _runs_workspace_code(workspace, server):
                del servers[name]
                notes.append(UNISOLATED_NOTE.format(what=f"MCP server {name!r} (it runs workspace files)"))
        return list(servers.values()), notes
    problem = approval_problem(workspace)
    if problem:
        notes.append(f"workspace MCP servers not started: {problem}")
    else:
        for server in workspace_servers(workspace):
            servers[server.name] = server
    return list(servers.values()), notes


UNISOLATED_NOTE = (
    "{what} not started: no sandbox isolates commands here, so workspace code would run on the "
    "host; use bwrap or Landlock (`hearth doctor`)"
)


def _runs_workspace_code(workspace: Path, server: ServerConfig) -> bool:
    try:
        return bool(covered_files(workspace, server).files)
    except ConfigError:
        return True


def sandbox_launcher(runner: SandboxRunner, workspace: Path) -> Launcher:
    """Each stdio server's command runs through the session's sandbox backend, as `shell` does:
    same confinement, the workspace as its folder, the network only if its entry says so."""

    def launch(config: ServerConfig) -> Prepared:
        bad = [k for k in config.env if not k or k[0].isdigit() or any(c not in ENV_NAME for c in k)]
        if bad:
            raise ConfigError(
                f"MCP server {config.name!r}: bad env name {bad[0]!r}.", "Use letters, digits, _."
            )
        cwd = workspace / config.cwd if config.cwd else workspace
        assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in config.env.items())
        command = f"{assigns} exec {shlex.join([config.command, *config.args])}".strip()
        spec = ExecSpec(command=command, cwd=cwd, network=config.network)
        runner.hold(("mcp", config.name))  # it lives all session: control files keep their state from now
        launch = runner.backend.launch(spec)
        env = runner.backend.env(spec) or {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        return Prepared(
            argv=launch.argv,
            env=env,
            pass_fds=launch.pass_fds,
            log=state_dir(workspace) / "logs" / f"mcp-{config.name}.log",
            release=launch.close,
        )

    return launch


# Tokens of MCP tool specs listed in full in every request; the tools of servers past it are
# summarised in `mcp_tools` and looked up (a small model's profile lists none: budget 0).
LISTED_TOKENS = 400
CHARS_PER_TOKEN = 4


def start_servers(
    runner: SandboxRunner, workspace: Path, toolset: Toolset, *, listed_tokens: int = LISTED_TOKENS
) -> McpServers:
    """Start the configured servers in the background and return at once. As each is ready its
    tools join `toolset` (never replacing one): listed in full while they fit `listed_tokens`,
    else unlisted and summarised in the `mcp_tools` lookup tool (added when any server is)."""
    try:
        configs, notes = configured_servers(workspace, isolated=runner.isolated)
    except ConfigError as exc:  # a broken mcp.json costs its servers, not the session
        configs, notes = [], [f"MCP servers not started: {exc.message} {exc.hint}".strip()]
    servers = McpServers(configs, sandbox_launcher(runner, workspace), notes)
    room = [listed_tokens]

    def ready(conn: Connection) -> None:
        tools, problems = mcp_tools(conn, lambda name: toolset.get(name) is not None)
        servers.notes += problems
        cost = sum(len(json.dumps(t.spec().to_wire())) for t in tools) // CHARS_PER_TOKEN
        listed = cost <= room[0]
        if listed:
            room[0] -= cost
        for tool in tools:
            toolset.add(tool if listed else dataclasses.replace(tool, listed=False))

    async def wait(name: str) -> None:
        for conn in servers.connections:
            if conn.state == "starting" and name.startswith(f"mcp__{conn.config.name}__"):
                await servers.settled(conn.config.name)

    servers.on_ready = ready
    servers.on_settled = lambda conn: toolset.changed()  # the lookup tool describes live state
    if servers.connections:
        toolset.add(lookup_tool(servers, toolset))
        toolset.add_waiter(wait)
    servers.start()
    return servers
