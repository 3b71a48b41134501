"""MCP servers start in the background, cost the first prompt little, and stop with the session.

Real servers (npm's filesystem server, PyPI's time server, shell commands that hang or fail),
the real CLI and REPL, the scripted model server.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from hearth.testing import ScriptedServer
from mcpsupport import (
    BIN,
    DONE,
    call,
    configure,
    filesystem,
    processes_mentioning,
    run,
    tool_description,
    tool_names,
    tool_results,
)
from support import HearthCli, clean_env

BUDGET = 600  # tokens a server with many tools may add to the first prompt


def gone(token: str, within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while processes_mentioning(token) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not processes_mentioning(token)


def hanging(token: str, startup_timeout: float) -> dict[str, Any]:
    return {"command": "/bin/sh", "args": ["-c", f"sleep 120 # {token}"], "startup_timeout": startup_timeout}


def test_a_slow_server_does_not_delay_the_first_prompt_and_stops_with_the_session(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    token = f"{workspace}/slow-token"
    configure(home, {"slow": hanging(token, 60)})
    server.add(DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    # nobody waited for it (its startup_timeout is 60 s): the model is told it is still starting
    assert "slow (starting)" in tool_description(server.requests[0], "mcp_tools")
    assert "failed" not in res.stderr  # stopped with the session: not reported as a failure
    # stopped with the session though it never finished starting
    assert gone(token), processes_mentioning(token)


def test_a_call_to_a_server_that_never_starts_comes_back_as_an_error_the_model_reads(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    token = f"{workspace}/never-token"
    configure(home, {"never": hanging(token, 2)})
    server.add(call("mcp__never__anything"), call("mcp_tools", server="never"), DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    assert "Unknown tool 'mcp__never__anything'" in tool_results(server.requests[1])[-1]
    looked = tool_results(server.requests[2])[-1]
    assert "never" in looked and "did not start within 2s (startup_timeout)" in looked, looked
    assert "MCP server never (stdio): failed; did not start within 2s" in res.stderr
    assert gone(token)


def status_until(child: pexpect.spawn, *patterns: str, within: float = 90) -> bool:
    """Send /status until one answer shows every pattern (each at most once a second)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        time.sleep(1)
        child.sendline("/status")
        child.expect(r"\w+ \(stdio\)")  # the answer began: the prompt that follows ends it
        answer = str(child.after)
        child.expect("›")
        answer += str(child.before)
        if all(re.search(pattern, answer) for pattern in patterns):
            return True
    return False


def test_repl_status_shows_servers_starting_and_failing_and_nothing_outlives_it(
    server: ScriptedServer, workspace: Path, home: Path
) -> None:
    token = f"{workspace}/repl-token"
    configure(
        home,
        {
            "slow": hanging(token, 4),
            "broken": {"command": "/nonexistent/server"},
            "fs": filesystem(workspace),
        },
    )
    env = clean_env(home, HEARTH_LLM_URL=server.url, TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "hearth", "-w", str(workspace)],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
    )
    try:
        child.expect("›")
        child.sendline("/status")
        child.expect(r"slow \(stdio\): starting")  # the REPL did not wait for it
        child.expect("›")
        # the slow server's 4 s count from when the REPL has its MCP SDK loaded, which a busy
        # machine makes late: ask again until it is past them
        shown = status_until(
            child,
            re.escape("slow (stdio): failed; did not start within 4s (startup_timeout)"),
            r"broken \(stdio\): failed",
            r"fs \(stdio\): 1\d tools",
        )
        assert shown, "the slow server never showed as failed, or fs never as ready"
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert gone(token) and gone(str(workspace))


def prompt_tokens(request: dict[str, Any]) -> int:
    """What every request carries before the conversation: the system prompt and the tool list."""
    system = [m for m in request["messages"] if m.get("role") == "system"]
    return len(json.dumps(request.get("tools") or []) + json.dumps(system)) // 4


def test_a_server_with_many_tools_adds_under_600_tokens_and_the_rest_is_looked_up(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    server.add(call("mcp_tools"), DONE)
    assert run(hearth, server, workspace).code == 0
    base = prompt_tokens(server.requests[0])

    configure(home, {"filesystem": filesystem(workspace)})
    server.requests.clear()
    server.add(call("mcp_tools"), DONE)  # the overview waits for the server: then it is ready
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    ready = server.requests[1]
    assert "filesystem (14 tools" in tool_description(ready, "mcp_tools") or "filesystem (1" in (
        tool_description(ready, "mcp_tools")
    )
    added = prompt_tokens(ready) - base
    assert 0 < added <= BUDGET, added


def time_server() -> dict[str, Any]:
    exe = BIN / "mcp-server-time"
    if not exe.exists():
        pytest.skip("mcp-server-time is not installed (pip install -e '.[dev]')")
    return {"command": str(exe), "args": ["--local-timezone", "UTC"]}


def test_a_small_model_is_shown_only_the_lookup_tool_and_what_it_looked_up(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    configure(home, {"time": time_server()})
    server.add(
        call("mcp_tools"),
        call("mcp_tools", server="time"),
        call("mcp__time__get_current_time", timezone="Asia/Tokyo"),
        DONE,
    )
    # process runner: the time server's interpreter lives under /root, which bwrap hides
    res = run(hearth, server, workspace, HEARTH_SANDBOX="process", HEARTH_MODEL_PROFILE="small")
    assert res.code == 0, res.stderr
    small = {"read", "write", "edit", "ls", "grep", "shell", "mcp_tools"}
    # two tools would be listed in full for a larger model; a small one sees only the lookup tool
    assert tool_names(server.requests[0]) == small
    assert tool_names(server.requests[1]) == small
    assert "time (2 tools: get_current_time, convert_time)" in tool_description(
        server.requests[1], "mcp_tools"
    )
    assert "mcp__time__get_current_time(timezone: string)" in tool_results(server.requests[2])[-1]
    assert tool_names(server.requests[2]) == small | {
        "mcp__time__get_current_time",
        "mcp__time__convert_time",
    }
    assert "Asia/Tokyo" in tool_results(server.requests[3])[-1]


def test_a_larger_model_gets_a_server_with_few_tools_listed_in_full(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    configure(home, {"time": time_server()})
    server.add(call("mcp_tools"), DONE)
    res = run(hearth, server, workspace, HEARTH_SANDBOX="process", HEARTH_MODEL_PROFILE="full")
    assert res.code == 0, res.stderr
    assert {"mcp__time__get_current_time", "mcp__time__convert_time"} <= tool_names(server.requests[1])
    assert "time (2 tools, listed)" in tool_description(server.requests[1], "mcp_tools")
