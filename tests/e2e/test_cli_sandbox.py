"""Shell, permissions and the audit trail, end to end through `hearth run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hearth.runtime.config import load_settings
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from requirements import need
from support import HearthCli


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def test_auto_mode_runs_shell_in_the_sandbox_and_audits_it(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(call("shell", command="echo hi > made.txt && cat made.txt"), ScriptedReply(text="Made it."))
    res = hearth(
        "run",
        "make a file",
        "-w",
        str(workspace),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url},
    )
    assert res.code == 0, res.stderr
    lines = res.json_lines()
    [perm] = [line for line in lines if line["type"] == "permission"]
    assert (perm["allowed"], perm["by"], perm["reason"]) == (True, "policy", "auto mode")
    [result] = [line for line in lines if line["type"] == "tool_result"]
    assert result["success"] and result["output"] == "hi"
    assert (workspace / "made.txt").read_text() == "hi\n"


def test_headless_refuses_what_needs_a_person_and_the_model_cannot_escalate(
    hearth: HearthCli,
    server: ScriptedServer,
    workspace: Path,
) -> None:
    server.add(
        call("shell", command="rm -rf build"),
        call("write", path=".hearth/config.toml", content='sandbox = "process"\npermission_mode = "auto"\n'),
        call("shell", command="HEARTH_SANDBOX=process HEARTH_PERMISSION_MODE=auto hearth run 'rm -rf build'"),
        call("write", path=".mcp.json", content='{"mcpServers": {"x": {"command": "sh"}}}'),
        call("disable_sandbox"),
        ScriptedReply(text="BLOCKED: I need permission to run shell commands."),
    )
    res = hearth("run", "clean the build", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    assert res.code == 3
    lines = res.json_lines()
    results = [line for line in lines if line["type"] == "tool_result"]
    assert [r["success"] for r in results] == [False] * 5
    assert "no one to ask" in results[0]["output"]
    assert "control file" in results[1]["output"]
    assert "control file" in results[3]["output"]
    assert "Unknown tool 'disable_sandbox'" in results[4]["output"]
    perms = [line for line in lines if line["type"] == "permission"]
    assert [p["by"] for p in perms] == ["headless"] * 4
    assert not (workspace / ".mcp.json").exists()
    assert not (workspace / ".hearth" / "config.toml").exists()
    settings = load_settings({"workspace": workspace}, environ={}).settings
    assert settings.sandbox.backend == "auto" and settings.permissions.mode.value == "normal"
    assert lines[-1]["status"] == "blocked"  # the last line (reflection follows in a process of its own)


def test_rules_from_config_allow_a_command_pattern(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / ".hearth").mkdir()
    (workspace / ".hearth" / "config.toml").write_text(
        'allow = ["shell(echo *)"]\ndeny = ["shell(echo secret*)"]\n'
    )
    # A project's rules apply once the user trusted it (tests/security/test_workspace_trust.py).
    assert hearth("trust", "--yes", "-w", str(workspace)).code == 0
    server.add(
        call("shell", command="echo allowed"),
        call("shell", command="echo secret stuff"),
        ScriptedReply(text="ok"),
    )
    res = hearth("run", "echo", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    results = [json.loads(x) for x in res.stdout.splitlines() if '"tool_result"' in x]
    assert results[0]["success"] and results[0]["output"] == "allowed"
    assert not results[1]["success"] and "denied by the rule shell(echo secret*)" in results[1]["output"]


def test_network_allow_list_puts_the_checking_proxy_in_front(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    need("bwrap")  # the allow-list's proxy is reached through bwrap's network namespace
    fetch = "python3 -c \"import urllib.request; urllib.request.urlopen('http://blocked.test/', timeout=5)\" 2>&1 | tail -1"
    server.add(call("shell", command=fetch), ScriptedReply(text="done"))
    res = hearth(
        "run",
        "fetch",
        "-w",
        str(workspace),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_NETWORK_ALLOW": "example.org,*.example.org"},
    )
    [result] = [line for line in res.json_lines() if line["type"] == "tool_result"]
    assert "403" in result["output"]


def test_web_fetch_reaches_a_local_dev_server_the_user_named(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<html><body><h1>Dev server</h1></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    dev = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=dev.serve_forever, daemon=True).start()
    port = dev.server_address[1]
    try:
        server.add(call("web_fetch", url=f"http://127.0.0.1:{port}/"), ScriptedReply(text="done"))
        env = {
            "HEARTH_LLM_URL": server.url,
            "HEARTH_TOOL_MODE": "native",
            "HEARTH_WEB_ALLOW_LOCAL": f"http://127.0.0.1:{port}",
        }
        res = hearth("run", "read my dev server", "-w", str(workspace), "--json", env=env)
    finally:
        dev.shutdown()
    [result] = [line for line in res.json_lines() if line["type"] == "tool_result"]
    assert result["success"] and "# Dev server" in result["output"], result


@pytest.mark.parametrize("backend", ["landlock", "process"])
def test_an_allow_list_on_a_sandbox_without_the_proxy_warns_instead_of_failing(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, backend: str
) -> None:
    if backend == "landlock":
        from hearth.sandbox.confined import LandlockBackend
        from hearth.sandbox.limits import ResourceLimits

        why = LandlockBackend(workspace, ResourceLimits()).available()
        if why:
            pytest.skip(f"Landlock cannot run here: {why}")
    server.add(ScriptedReply(text="Hi. TASK_COMPLETE"))
    env = {"HEARTH_LLM_URL": server.url, "HEARTH_NETWORK_ALLOW": "example.org", "HEARTH_SANDBOX": backend}
    res = hearth("run", "hi", "-w", str(workspace), "--json", env=env)
    assert res.code == 0, res.stderr
    assert "network_allow applies to web_fetch only" in res.stderr
