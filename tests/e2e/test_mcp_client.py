"""Real MCP servers (npm and PyPI) used by the real `hearth run`, against the scripted model server.

The npm servers are installed by .ci/run into .ci/node; without them (or without node) their
tests are skipped here with the reason, and fail in CI (HEARTH_TEST_REQUIRE=all).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from hearth.testing import ScriptedServer
from mcpsupport import (
    BIN,
    DONE,
    call,
    configure,
    everything,
    filesystem,
    processes_mentioning,
    run,
    tool_description,
    tool_names,
    tool_results,
)
from support import HearthCli


def test_the_model_reads_a_file_through_the_filesystem_server_in_the_sandbox(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    (workspace / "notes.txt").write_text("the answer is 42\n")
    configure(home, {"filesystem": filesystem(workspace, disabled_tools=["write_file", "move_file"])})
    # Called at once, while the server may still be starting: the call waits for it.
    server.add(call("mcp__filesystem__read_text_file", path=str(workspace / "notes.txt")), DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    names = tool_names(server.requests[0])
    # Many tools: not listed one by one, summarised in the lookup tool.
    assert "mcp_tools" in names and "read" in names
    assert not any(n.startswith("mcp__") for n in names), names
    assert any("the answer is 42" in r for r in tool_results(server.requests[1]))
    # A tool called once joins the list; disabled tools are never offered, not even by name.
    later = tool_names(server.requests[1])
    assert "mcp__filesystem__read_text_file" in later
    assert "write_file" not in tool_description(server.requests[1], "mcp_tools")
    assert not {"mcp__filesystem__write_file", "mcp__filesystem__move_file"} & later


def test_the_model_looks_up_a_servers_tools_and_they_join_the_list(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    (workspace / "a.txt").write_text("alpha\n")
    configure(home, {"filesystem": filesystem(workspace)})
    server.add(
        call("mcp_tools"),
        call("mcp_tools", tools=["read_text_file", "list_directory"]),
        call("mcp__filesystem__list_directory", path=str(workspace)),
        DONE,
    )
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    overview = tool_results(server.requests[1])[-1]
    assert "filesystem: 14 tools" in overview or "filesystem: 1" in overview, overview
    assert "read_text_file:" in overview and "mcp__filesystem__read_text_file" not in overview
    # by now the server is ready: the description names its tools
    described = tool_description(server.requests[1], "mcp_tools")
    assert "filesystem (" in described and "read_text_file" in described, described
    assert not any(n.startswith("mcp__") for n in tool_names(server.requests[1]))
    detail = tool_results(server.requests[2])[-1]
    assert "mcp__filesystem__read_text_file(path: string" in detail, detail
    assert "mcp__filesystem__list_directory(path: string)" in detail
    assert {"mcp__filesystem__read_text_file", "mcp__filesystem__list_directory"} <= tool_names(
        server.requests[2]
    )
    assert "mcp__filesystem__write_file" not in tool_names(server.requests[2])
    assert "a.txt" in tool_results(server.requests[3])[-1]


def test_a_hanging_tool_times_out_and_the_model_reads_why(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    configure(home, {"everything": everything(tool_timeout=2)})
    server.add(call("mcp__everything__trigger-long-running-operation", duration=60, steps=2), DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    results = tool_results(server.requests[1])
    assert any("did not answer within 2s" in r and "tool_timeout" in r for r in results), results


def test_the_time_server_from_pypi_answers(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    exe = BIN / "mcp-server-time"
    if not exe.exists():
        pytest.skip("mcp-server-time is not installed (pip install -e '.[dev]')")
    configure(home, {"time": {"command": str(exe), "args": ["--local-timezone", "UTC"]}})
    server.add(call("mcp__time__get_current_time", timezone="Europe/Paris"), DONE)
    # The process runner: bwrap hides /root, where this test machine's venv interpreter lives
    # (a Python server needs its interpreter visible inside the sandbox; node's is in /usr).
    res = run(hearth, server, workspace, HEARTH_SANDBOX="process", HEARTH_PERMISSION_MODE="auto")
    assert res.code == 0, res.stderr
    results = tool_results(server.requests[1])
    assert any("Europe/Paris" in r and "datetime" in r for r in results), results


def test_an_unapproved_workspace_mcp_json_starts_nothing(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    marker = workspace / "started-marker"
    script = f"touch {marker}; echo this is not json-rpc; exit 3"
    # a wide start-up time: the server exits at once; under load its sandboxed start took over 5 s
    entry = {"command": "/bin/sh", "args": ["-c", script], "startup_timeout": 30}
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": entry}}))
    server.add(DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    assert not marker.exists()
    assert "not approved" in res.stderr and "hearth mcp approve" in res.stderr

    approved = hearth("mcp", "approve", str(workspace), "--yes")
    assert approved.code == 0, approved.stderr
    server.add(call("mcp_tools"), DONE)  # the lookup waits for the servers still starting
    res = run(hearth, server, workspace)
    assert res.code == 0, (
        res.stderr
    )  # the server that printed garbage and exited is reported; the session goes on
    assert marker.exists()
    assert "MCP server local (stdio): failed" in res.stderr

    # a change (by the model, or a pull) needs a new approval
    marker.unlink()
    entry["args"] = ["-c", script + " # changed"]
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": entry}}))
    server.add(DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    assert not marker.exists() and "changed since approved" in res.stderr


def test_mcp_commands_add_list_test_remove(hearth: HearthCli, workspace: Path) -> None:
    index = filesystem(workspace)["args"][0]
    assert hearth("mcp", "add", "fs", "--", "node", index, str(workspace)).code == 0
    listed = hearth("mcp", "list", "-w", str(workspace))
    assert "fs" in listed.stdout and "server-filesystem" in listed.stdout
    tested = hearth("mcp", "test", "fs", "-w", str(workspace), "--json")
    assert tested.code == 0, tested.stderr
    data = json.loads(tested.stdout)
    assert data["state"] == "ready" and any("mcp__fs__read_text_file" in t for t in data["tools"])
    assert hearth("mcp", "remove", "fs").code == 0
    assert "No MCP servers" in hearth("mcp", "list", "-w", str(workspace)).stdout
    assert hearth("mcp", "remove", "fs").code != 0


def test_web_status_and_tools_show_servers_failures_and_nothing_outlives_the_server(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from websupport import running_web

    token = f"{workspace}/hang-token"
    configure(
        home,
        {
            "filesystem": filesystem(workspace),
            "hangs": {"command": "/bin/sh", "args": ["-c", f"sleep 60 # {token}"], "startup_timeout": 1},
            "garbage": {"command": "/bin/sh", "args": ["-c", "echo '{not json'; exit 1"]},
            "off": {"command": "/bin/false", "enabled": False},
        },
    )
    with running_web(workspace, home, server, monkeypatch, tool_mode="native") as web, web.client() as http:
        deadline = time.monotonic() + 30
        while True:
            text = "\n".join(http.get("/api/status").json()["mcp_servers"])
            if "starting" not in text or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert "filesystem (stdio): 14 tools" in text or "filesystem (stdio): 1" in text, text
        assert "hangs (stdio): failed; did not start within 1s (startup_timeout)" in text
        assert "garbage (stdio): failed" in text and "off (): disabled" in text
        tools = {t["name"]: t for t in http.get("/api/tools").json()}
        assert tools["mcp__filesystem__read_text_file"]["source"] == "mcp:filesystem"
        assert tools["mcp__filesystem__read_text_file"]["read_only"] is True
        assert tools["read"]["source"] == "built-in"
        assert processes_mentioning(str(workspace)), "the filesystem server should be running"
    deadline = time.monotonic() + 10
    while processes_mentioning(str(workspace)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_mentioning(str(workspace)) == []


def test_doctor_reports_each_server(hearth: HearthCli, workspace: Path, home: Path) -> None:
    configure(
        home,
        {
            "filesystem": filesystem(workspace),
            "broken": {"command": "/nonexistent/server", "startup_timeout": 5},
        },
    )
    res = hearth("doctor", "-w", str(workspace))
    assert "mcp" in res.stdout
    assert "filesystem (stdio): 14 tools" in res.stdout
    assert "broken (stdio): failed" in res.stdout


@pytest.fixture
def everything_http(tmp_path: Path):  # type: ignore[no-untyped-def]
    """server-everything over Streamable HTTP on a free port of 127.0.0.1."""
    import socket
    import subprocess

    index = everything()["args"][0]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = (tmp_path / "everything.log").open("w")
    proc = subprocess.Popen(
        ["node", index, "streamableHttp"], env={**os.environ, "PORT": str(port)}, stdout=log, stderr=log
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


def test_a_streamable_http_server_is_used_end_to_end(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path, everything_http: str
) -> None:
    configure(home, {"every": {"url": everything_http, "enabled_tools": ["echo", "get-sum"]}})
    listed = hearth("mcp", "test", "every", "-w", str(workspace), "--json")
    assert listed.code == 0, listed.stdout + listed.stderr
    assert sorted(json.loads(listed.stdout)["tools"]) == [
        "mcp__every__echo  (read-only)",
        "mcp__every__get-sum  (read-only)",
    ]
    server.add(call("mcp__every__get-sum", a=40, b=2), DONE)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    # two tools fit the budget: listed in full once the server is ready
    assert tool_names(server.requests[1]) >= {"mcp__every__echo", "mcp__every__get-sum"}
    assert any("42" in r for r in tool_results(server.requests[1]))


def test_annotations_feed_the_permission_policy(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    """The filesystem server marks write_file destructive, create_directory not destructive and
    read_text_file read-only; a headless run in normal mode (no one to ask) and in plan mode."""
    (workspace / "there.txt").write_text("already here\n")
    configure(home, {"filesystem": filesystem(workspace)})
    server.add(
        call("mcp__filesystem__write_file", path=str(workspace / "w.txt"), content="x"),
        call("mcp__filesystem__create_directory", path=str(workspace / "made")),
        call("mcp__filesystem__read_text_file", path=str(workspace / "there.txt")),
        DONE,
    )
    res = run(hearth, server, workspace, HEARTH_PERMISSION_MODE="normal")
    assert res.code == 0, res.stderr
    write, mkdir, read = (tool_results(server.requests[i])[-1] for i in (1, 2, 3))
    assert "needs a person's approval (normal mode asks before destructive tools)" in write, write
    assert not (workspace / "w.txt").exists()
    assert (workspace / "made").is_dir(), mkdir  # destructiveHint false: no one needed
    assert "already here" in read

    server.requests.clear()
    server.add(
        call("mcp__filesystem__create_directory", path=str(workspace / "planned")),
        call("mcp__filesystem__read_text_file", path=str(workspace / "there.txt")),
        DONE,
    )
    res = run(hearth, server, workspace, HEARTH_PERMISSION_MODE="plan")
    assert res.code == 0, res.stderr
    mkdir, read = (tool_results(server.requests[i])[-1] for i in (1, 2))
    assert "plan mode allows only read-only tools" in mkdir, mkdir
    assert not (workspace / "planned").exists()
    assert "already here" in read  # readOnlyHint: what plan mode allows
