"""`hearth mcp-server` driven by the official MCP SDK's client over stdio."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from support import clean_env


async def _session(workspace: Path, home: Path, calls: list[tuple[str, dict[str, Any]]], **env: str) -> Any:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hearth.apps.cli.main", "mcp-server", "-w", str(workspace)],
        env=clean_env(home, **env),
        cwd=str(workspace),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        results = [await session.call_tool(name, args) for name, args in calls]
        return listed, results


def run(workspace: Path, home: Path, calls: list[tuple[str, dict[str, Any]]], **env: str) -> Any:
    return asyncio.run(asyncio.wait_for(_session(workspace, home, calls, **env), 60))


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


def test_another_agent_lists_hearths_tools_and_runs_shell_sandboxed(
    workspace: Path, home: Path, tmp_path: Path
) -> None:
    # a folder the sandbox shows read-only (the checkout), and one it hides (the test's /tmp folder)
    shown = Path(__file__).resolve().parent / f"outside-{tmp_path.name}.txt"
    outside = tmp_path / "outside.txt"
    listed, (inside_write, outside_write, shown_write, read) = run(
        workspace,
        home,
        [
            ("shell", {"command": "echo made by shell > inside.txt"}),
            ("shell", {"command": f"echo escaped > {outside} && cat {outside}"}),
            ("shell", {"command": f"echo escaped > {shown}"}),
            ("read", {"path": "inside.txt"}),
        ],
        HEARTH_PERMISSION_MODE="auto",
    )
    tools = {t.name: t for t in listed.tools}
    assert {"read", "write", "edit", "shell", "git_status"} <= set(tools)
    assert tools["read"].annotations.read_only_hint is True
    assert tools["shell"].input_schema["properties"]["command"]["type"] == "string"
    assert not inside_write.is_error, text(inside_write)
    assert (workspace / "inside.txt").read_text() == "made by shell\n"
    assert not outside.exists()  # the sandbox kept the write out of the real folder
    assert "escaped" in text(outside_write)  # (it went to the sandbox's own empty /tmp)
    assert not shown.exists() and "Read-only file system" in text(shown_write)
    assert "made by shell" in text(read)


def test_what_the_mode_forbids_is_refused_with_the_reason(workspace: Path, home: Path) -> None:
    (workspace / "there.txt").write_text("already here\n")
    _, (shell, write, read) = run(
        workspace,
        home,
        [
            ("shell", {"command": "touch made.txt"}),
            ("write", {"path": "w.txt", "content": "x"}),
            ("read", {"path": "there.txt"}),
        ],
        HEARTH_PERMISSION_MODE="plan",
    )
    assert shell.is_error and "Denied" in text(shell) and "plan" in text(shell)
    assert write.is_error and not (workspace / "w.txt").exists() and not (workspace / "made.txt").exists()
    assert not read.is_error and "already here" in text(read)  # reading is what plan mode allows


def test_bad_calls_are_tool_errors_not_crashes(workspace: Path, home: Path) -> None:
    _, (unknown, bad) = run(workspace, home, [("nope", {}), ("read", {"wrong": 1})])
    assert unknown.is_error and "nope" in text(unknown)
    assert bad.is_error and "unknown argument" in text(bad)
