"""`hearth mcp-server` driven by the official MCP SDK's client over stdio."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
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
    # bwrap: it went to the sandbox's own empty /tmp; Landlock: the folder is not writable
    assert "escaped" in text(outside_write) or "Permission denied" in text(outside_write)
    # a folder the sandbox shows read-only, or (when the checkout is under a hidden /tmp, /root or
    # /home) one it does not show at all: either way the write fails
    refused = (
        "Read-only file system",
        "Directory nonexistent",
        "No such file or directory",
        "Permission denied",
    )
    assert not shown.exists() and any(reason in text(shown_write) for reason in refused), text(shown_write)
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


def scripted(*replies: ScriptedReply) -> ScriptedServer:
    model = ScriptedServer().start()
    model.add(*replies)
    return model


def test_run_task_runs_a_whole_session_in_the_sandbox(workspace: Path, home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside-run-task.txt"
    model = scripted(
        # the attempt outside first: a failed last run would send the finish back (on Landlock it fails)
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments={"command": f"echo x > {outside}"})]),
        ScriptedReply(
            tool_calls=[ScriptedCall(name="write", arguments={"path": "hello.py", "content": "print(1)\n"})]
        ),
        ScriptedReply(text="Wrote hello.py.\nTASK_COMPLETE"),
    )
    try:
        listed, (result,) = run(
            workspace,
            home,
            [("run_task", {"task": "Write hello.py that prints 1"})],
            HEARTH_LLM_URL=model.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_PERMISSION_MODE="auto",
        )
    finally:
        model.stop()
    tools = {t.name: t for t in listed.tools}
    assert "task" in tools["run_task"].input_schema["properties"]
    assert tools["run_task"].annotations.read_only_hint is False
    assert not result.is_error, text(result)
    said = text(result)
    assert "Wrote hello.py." in said and ": done" in said
    assert (workspace / "hello.py").read_text() == "print(1)\n"
    assert not outside.exists()  # the session's shell ran in the sandbox
    # the task reached the model as the person's message, through a real session
    first = model.requests[0]["messages"]
    assert any(m["role"] == "user" and "Write hello.py that prints 1" in str(m["content"]) for m in first)
    # the session is stored like any other: run_task can continue it
    session = said.split("Hearth session ", 1)[1].split(":", 1)[0]
    # continued by a server in plan mode, the session (begun in auto mode) works in plan mode
    model2 = scripted(
        ScriptedReply(tool_calls=[ScriptedCall(name="write", arguments={"path": "more.py", "content": "2"})]),
        ScriptedReply(text="Still here.\nTASK_COMPLETE"),
    )
    try:
        _, (again,) = run(
            workspace,
            home,
            [("run_task", {"task": "Anything else?", "session": session})],
            HEARTH_LLM_URL=model2.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_PERMISSION_MODE="plan",
        )
    finally:
        model2.stop()
    assert f"Hearth session {session}" in text(again) and "Still here." in text(again)
    assert any("Write hello.py" in str(m.get("content")) for m in model2.requests[0]["messages"])
    assert "write 'more.py': plan mode allows only read-only tools" in text(again), text(again)
    assert not (workspace / "more.py").exists()


def test_run_task_refuses_what_would_need_a_person_and_says_why(workspace: Path, home: Path) -> None:
    model = scripted(
        ScriptedReply(tool_calls=[ScriptedCall(name="write", arguments={"path": "w.txt", "content": "x"})]),
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments={"command": "touch made.txt"})]),
        ScriptedReply(text="BLOCKED: I was not allowed to write."),
    )
    try:
        _, (result,) = run(
            workspace,
            home,
            [("run_task", {"task": "Make two files"})],
            HEARTH_LLM_URL=model.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_PERMISSION_MODE="manual",
        )
    finally:
        model.stop()
    said = text(result)
    assert result.is_error and "blocked" in said, said
    assert "Refused (no one to approve)" in said
    assert "write 'w.txt': manual mode asks before every tool" in said, said
    assert "shell 'touch made.txt'" in said
    assert not (workspace / "w.txt").exists() and not (workspace / "made.txt").exists()
    # the model heard why, as a tool result
    results = [m for m in model.requests[1]["messages"] if m["role"] == "tool"]
    assert "needs a person's approval" in str(results[-1]["content"])


def test_run_task_without_a_model_server_says_what_to_do(workspace: Path, home: Path) -> None:
    _, (empty, unreachable) = run(
        workspace,
        home,
        [("run_task", {"task": " "}), ("run_task", {"task": "hi"})],
        HEARTH_LLM_URL="http://127.0.0.1:9/v1",
        HEARTH_TOOL_MODE="native",
    )
    assert empty.is_error and "needs a task" in text(empty)
    said = text(unreachable)
    assert unreachable.is_error and "error" in said and "Cannot reach the model server" in said, said
