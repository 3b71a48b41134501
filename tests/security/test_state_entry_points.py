"""The hostile clone of test_state_outside_workspace.py, through every other way into Hearth.

The REPL, `hearth web` (HTTP and WebSocket), `hearth mcp-server` driven by the MCP SDK's client,
`hearth pipeline run` and the Telegram bridge each open the clone that ships a forged
`.hearth/sessions.db` (shell always allowed, auto mode, dated in the future), log files that are
symlinks to a canary outside, an inbox task and a forged checkpoint repository, and here also its
own `.hearth/config.toml` and `.env` asking for auto mode and shell allowed (or no sandbox), which
pass only the user's trust, never given in these tests. Where a person
can be asked, the forged session is resumed and a shell command is still asked about; where no
one can be asked, it is refused headless. Afterwards nothing outside changed, nothing was written
under the workspace's `.hearth/`, and the user's own git fires nothing planted.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from e2e.test_bridge_telegram import ALICE, TOKEN, bridge
from hearth.testing import ScriptedReply, ScriptedServer
from hearth.testing.platforms import FakeTelegram
from pipelinesupport import coder_marker, done, planned, planner_marker, reviewer_marker, task, verdict
from security.test_state_outside_workspace import (
    FORGED,
    INBOX_TEXT,
    SHELL,
    assert_untouched,
    call,
    digest,
    git,
    hostile_clone,
)
from support import clean_env, state_of
from websupport import receive_until, running_web

VARIANTS = ["shipped", "hearth-symlink", "dangling-db"]


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    folder = tmp_path / "canary"
    (folder / "fired").mkdir(parents=True)
    (folder / "target.txt").write_text("untouched\n")
    return folder


# What the clone's own settings files also ask for; they pass only the user's trust (never given
# here). Shell allowed in auto mode, for the entry points that ask a person; no sandbox, for the
# pipeline, whose coder works in auto mode anyway. (An unsandboxed shell always asks, so the two
# are not forged together: each would hide the other.)
FORGED_AUTO = ('permission_mode = "auto"\nallow = ["shell(*)", "shell"]\n', "HEARTH_PERMISSION_MODE=auto\n")
FORGED_NO_SANDBOX = ('sandbox = "process"\n', "HEARTH_SANDBOX=process\n")


def forged_clone(tmp_path: Path, canary: Path, variant: str, forged: tuple[str, str] = FORGED_AUTO) -> Path:
    ws = hostile_clone(tmp_path, canary, variant)
    config, env = forged
    if variant != "hearth-symlink":  # there `.hearth/` is the canary itself
        (ws / ".hearth" / "config.toml").write_text(config)
    (ws / ".env").write_text(env)
    return ws


def clone(
    tmp_path: Path, canary: Path, variant: str, forged: tuple[str, str] = FORGED_AUTO
) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    ws = forged_clone(tmp_path, canary, variant, forged)
    return ws, digest(canary), digest(ws / ".hearth")


def no_inbox(server: ScriptedServer) -> None:
    assert not any(INBOX_TEXT in str(r) for r in server.requests), "the workspace's inbox task was run"


def recorded(ws: Path, kind: str) -> list[dict[str, Any]]:
    """Every event of `kind` in the store of the real state folder (outside the workspace)."""
    db = sqlite3.connect(state_of(ws) / "sessions.db")
    try:
        rows = db.execute("SELECT data FROM events WHERE kind = ? ORDER BY rowid", (kind,)).fetchall()
    finally:
        db.close()
    return [json.loads(r[0]) for r in rows]


def shell_decisions(ws: Path) -> list[tuple[bool, str]]:
    return [(p["allowed"], p["by"]) for p in recorded(ws, "permission") if p["tool"] == "shell"]


# -- the REPL --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_repl_resuming_the_forged_session_still_asks(
    server: ScriptedServer, tmp_path: Path, home: Path, canary: Path, variant: str
) -> None:
    ws, before_canary, before_hearth = clone(tmp_path, canary, variant)
    server.add(call("shell", command=SHELL), ScriptedReply(text="Refused, so nothing made."))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "hearth", "-w", str(ws)],
        env=clean_env(home, HEARTH_LLM_URL=server.url, TERM="xterm"),
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    try:
        child.expect("with these settings\\? \\[y/N\\]")  # the clone's own settings: the person says no
        child.sendline("n")
        child.expect("›")
        if variant == "shipped":  # the carried-over session, resumed: history only
            child.sendline(f"/resume {FORGED}")
            child.expect(f"Resumed {FORGED}")
            child.expect("›")
        child.sendline("make a file")
        seen = child.expect(["needs your approval", "Refused, so nothing made"])
        assert seen == 0, "the shell command ran without asking: the forged rule or mode applied"
        child.expect(re.escape(SHELL))
        child.sendline("n")
        child.expect("Refused, so nothing made")
        child.expect("›")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert shell_decisions(ws) == [(False, "user")]
    assert_untouched(ws, canary, before_canary, before_hearth)
    no_inbox(server)


# -- hearth web ------------------------------------------------------------------------------------


def until_asked_or_done(sock: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] not in ("approval_request", "done"):
        seen.append(json.loads(sock.recv(timeout=30)))
    return seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_web_asks_on_the_websocket_and_refuses_headless_over_http(
    server: ScriptedServer,
    tmp_path: Path,
    home: Path,
    canary: Path,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
) -> None:
    ws, before_canary, before_hearth = clone(tmp_path, canary, variant)
    session = FORGED if variant == "shipped" else "fresh"
    server.add(
        call("shell", command=SHELL),
        ScriptedReply(text="Asked and refused.\nTASK_COMPLETE"),
        call("shell", command=SHELL),
        ScriptedReply(text="No one to ask.\nTASK_COMPLETE"),
    )
    # `hearth web` runs the scheduler too: looking often, it would run a forged wake-up or inbox task
    with running_web(ws, home, server, monkeypatch, tool_mode="native", scheduler_poll=0.1) as web:
        assert web.app.state.web.scheduler is not None, web.app.state.web.scheduler_note
        with web.ws(f"/ws/{session}") as sock:
            hello = receive_until(sock, "hello")[-1]
            assert hello["session"] == session
            sock.send(json.dumps({"type": "message", "content": "make a file"}))
            seen = until_asked_or_done(sock)
            ask = seen[-1]
            assert ask["type"] == "approval_request", [m["type"] for m in seen]  # else it ran unasked
            assert ask["tool"] == "shell" and ask["shown"] == SHELL
            sock.send(json.dumps({"type": "approve", "id": ask["id"], "decision": "deny"}))
            assert receive_until(sock, "done")[-1]["status"] == "done"
        with web.client() as api:
            out = api.post(f"/api/chat/{session}", json={"message": "make a file again"})
            assert out.status_code == 200 and out.json()["status"] == "done", out.text
            events = api.get(f"/api/sessions/{session}/history").json()["events"]
        time.sleep(0.5)  # a few more of the scheduler's looks
    assert len(server.requests) == 4, "the scheduler asked the model for something else"
    audit = [(m["allowed"], m["by"]) for m in events if m["type"] == "permission"]
    assert audit == [(False, "user"), (False, "headless")], audit
    assert_untouched(ws, canary, before_canary, before_hearth)
    no_inbox(server)


# -- hearth mcp-server -----------------------------------------------------------------------------


async def _mcp(ws: Path, home: Path, calls: list[tuple[str, dict[str, Any]]], **env: str) -> list[Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hearth.apps.cli.main", "mcp-server", "-w", str(ws)],
        env=clean_env(home, **env),
        cwd=str(ws),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await session.call_tool(name, args) for name, args in calls]


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


@pytest.mark.parametrize("variant", VARIANTS)
def test_mcp_server_refuses_shell_and_run_task_headless(
    server: ScriptedServer, tmp_path: Path, home: Path, canary: Path, variant: str
) -> None:
    ws, before_canary, before_hearth = clone(tmp_path, canary, variant)
    server.add(call("shell", command=SHELL), ScriptedReply(text="BLOCKED: no one approved the shell."))
    task: dict[str, Any] = {"task": "make a file"}
    if variant == "shipped":
        task["session"] = FORGED  # continue the carried-over session
    shell, run_task = asyncio.run(
        asyncio.wait_for(
            _mcp(
                ws,
                home,
                [("shell", {"command": SHELL}), ("run_task", task)],
                HEARTH_LLM_URL=server.url,
                HEARTH_TOOL_MODE="native",
            ),
            90,
        )
    )
    assert shell.is_error and "approv" in text(shell), text(shell)
    said = text(run_task)
    assert "Refused (no one to approve)" in said and f"shell '{SHELL}'" in said, said
    if variant == "shipped":
        assert f"Hearth session {FORGED}" in said, said
    assert_untouched(ws, canary, before_canary, before_hearth)
    no_inbox(server)


# -- hearth pipeline run ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_pipeline_run_on_a_plan_shipped_in_the_clone(
    hearth: Any, server: ScriptedServer, tmp_path: Path, canary: Path, variant: str
) -> None:
    """The pipeline's coder works headless in auto mode by design, so its shell runs without a
    person; what holds it is the sandbox: the command that writes the canary changes nothing."""
    ws, before_canary, before_hearth = clone(tmp_path, canary, variant, FORGED_NO_SANDBOX)
    (ws / "plans").mkdir()
    (ws / "plans" / "hostile.md").write_text("# Hostile\n\nAn add function in calc.py.\n")
    git("add", "plans/hostile.md", cwd=ws)
    git("commit", "-q", "-m", "a plan", cwd=ws)
    # Outside the workspace: refused by every backend. (A symlink made inside the workspace's
    # .hearth/ is only data now: under Landlock a command may make one, and Hearth never writes
    # through it; test_state_outside_workspace covers that.)
    escape = f"echo escaped > {canary}/target.txt"
    server.route(planner_marker("hostile"), planned(task("t1", "Add function", ["calc.py"])))
    server.route(
        coder_marker("t1"),
        call("shell", command=escape),
        call("write", path="calc.py", content="def add(a, b):\n    return a + b\n"),
        done(),
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    res = hearth(
        "pipeline",
        "run",
        "--once",
        "--poll",
        "0.1",
        "-w",
        str(ws),
        env={"HEARTH_LLM_URL": server.url, "HEARTH_TOOL_MODE": "native"},
        timeout=180,
    )
    assert res.code == 0, res.stderr[-3000:]
    assert "Traceback" not in res.stderr
    assert (ws / "calc.py").exists(), res.stderr[-3000:]
    assert shell_decisions(ws) == [(True, "policy")]  # auto mode: the pipeline's own choice
    [ran] = [r for r in recorded(ws, "tool_result") if r["name"] == "shell"]
    assert not ran["ok"], ran  # the write outside failed inside the sandbox
    assert_untouched(ws, canary, before_canary, before_hearth)
    no_inbox(server)


# -- a chat bridge ---------------------------------------------------------------------------------


def forge_chat(db_path: Path, chat: int) -> None:
    """The shipped store also says which session a Telegram chat continues: the forged one."""
    db = sqlite3.connect(db_path)
    db.execute(
        "CREATE TABLE IF NOT EXISTS bridge_chats (platform TEXT NOT NULL, chat TEXT NOT NULL, "
        "session TEXT NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (platform, chat))"
    )
    db.execute(
        "INSERT INTO bridge_chats VALUES ('telegram', ?, ?, '2099-01-01T00:00:00Z')", (str(chat), FORGED)
    )
    db.commit()
    db.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_telegram_bridge_refuses_shell_headless(
    server: ScriptedServer, tmp_path: Path, home: Path, canary: Path, variant: str
) -> None:
    ws = forged_clone(tmp_path, canary, variant)
    if variant == "shipped":
        forge_chat(ws / ".hearth" / "sessions.db", ALICE)
    before_canary, before_hearth = digest(canary), digest(ws / ".hearth")
    server.add(call("shell", command=SHELL), ScriptedReply(text="Could not, nobody approved.\nTASK_COMPLETE"))
    with FakeTelegram(TOKEN) as tg, bridge(ws, home, server, tg, tmp_path / "bridge.log"):
        tg.say(ALICE, "make a file")
        assert tg.wait_sent(1)[0]["text"] == "Could not, nobody approved."
    assert shell_decisions(ws) == [(False, "headless")]
    assert_untouched(ws, canary, before_canary, before_hearth)
    no_inbox(server)
