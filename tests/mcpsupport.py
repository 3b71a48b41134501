"""Helpers for the MCP tests: real servers from npm (.ci/node) and PyPI, the real CLI."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from requirements import NODE_PREFIX, need, required
from support import CliResult, HearthCli

ROOT = Path(__file__).resolve().parents[1]
NPM = NODE_PREFIX / "node_modules" / "@modelcontextprotocol"
BIN = Path(sys.executable).parent


def need_npm(path: Path, what: str) -> Path:
    need("node")
    if not path.exists():  # node is there, this one server is not
        message = f"{what} is not installed at {path} (npm install --prefix {NODE_PREFIX} {what})"
        if required("node"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def filesystem(workspace: Path, **extra: Any) -> dict[str, Any]:
    index = need_npm(
        NPM / "server-filesystem" / "dist" / "index.js", "@modelcontextprotocol/server-filesystem"
    )
    return {"command": "node", "args": [str(index), str(workspace)], **extra}


def everything(**extra: Any) -> dict[str, Any]:
    index = need_npm(
        NPM / "server-everything" / "dist" / "index.js", "@modelcontextprotocol/server-everything"
    )
    return {"command": "node", "args": [str(index), "stdio"], **extra}


def configure(home: Path, servers: dict[str, Any]) -> None:
    folder = home / ".config" / "hearth"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


def run(hearth: HearthCli, server: ScriptedServer, workspace: Path, *extra: str, **env: str) -> CliResult:
    return hearth(
        "run",
        "Use the tools",
        "-w",
        str(workspace),
        *extra,
        env={"HEARTH_LLM_URL": server.url, "HEARTH_TOOL_MODE": "native", **env},
        timeout=120,
    )


def tool_names(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools", [])}


def tool_results(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


DONE = ScriptedReply(text="TASK_COMPLETE")


def tool_description(request: dict[str, Any], name: str) -> str:
    return next(t["function"]["description"] for t in request["tools"] if t["function"]["name"] == name)


def processes_mentioning(token: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            try:
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if token in cmdline:
                found.append(f"{proc.name}: {cmdline[:200]}")
    return found
