"""`hearth mcp-server` over Streamable HTTP at the web server's /mcp, behind its login,
driven by the official MCP SDK's client against a real `hearth web` on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from websupport import TOKEN, running_web

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


async def _use(url: str, token: str, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    # the client type the MCP SDK takes (its own fork of httpx)
    client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    async with (
        client,
        streamable_http_client(f"{url}/mcp", http_client=client) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        await session.initialize()
        listed = await session.list_tools()
        return listed, [await session.call_tool(name, args) for name, args in calls]


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


def test_mcp_over_http_needs_the_login(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_web(workspace, home, server, monkeypatch) as web, web.client(token=None) as anon:
        for headers in (
            {},
            {"Authorization": "Bearer wrong-token"},
            {"Authorization": f"Basic {TOKEN}"},
            {"Cookie": "hearth_auth=made-up", "Origin": web.url},
        ):
            refused = anon.post("/mcp", json=INITIALIZE, headers={**ACCEPT, **headers})
            assert refused.status_code == 401, (headers, refused.status_code)
            assert "serverInfo" not in refused.text
        assert anon.post("/mcp", json=INITIALIZE, params={"token": TOKEN}, headers=ACCEPT).status_code == 401
        assert anon.get("/mcp", headers=ACCEPT).status_code == 401
        with web.client() as api:  # stateless: no stream to hold open, no session to delete
            assert api.get("/mcp", headers=ACCEPT).status_code == 405
            assert api.delete("/mcp").status_code == 405
        # an MCP client without the token gets nowhere either
        with pytest.raises(BaseException):  # noqa: B017 - the SDK raises its own HTTP error, in a group
            asyncio.run(asyncio.wait_for(_use(web.url, "wrong-token", []), 30))
        with web.client() as api:  # with the token the same request is answered
            answered = api.post("/mcp", json=INITIALIZE, headers=ACCEPT)
            assert answered.status_code == 200 and "hearth" in answered.text


def test_an_authenticated_mcp_client_lists_and_calls_tools_and_runs_a_task(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / "there.txt").write_text("already here\n")
    server.add(
        ScriptedReply(
            tool_calls=[ScriptedCall(name="write", arguments={"path": "t.txt", "content": "by task"})]
        ),
        ScriptedReply(text="Made t.txt.\nTASK_COMPLETE"),
    )
    with running_web(workspace, home, server, monkeypatch, tool_mode="native", permission_mode="auto") as web:
        listed, (read, shell, task) = asyncio.run(
            asyncio.wait_for(
                _use(
                    web.url,
                    TOKEN,
                    [
                        ("read", {"path": "there.txt"}),
                        ("shell", {"command": "echo made > s.txt && cat /etc/hostname > /dev/null; pwd"}),
                        ("run_task", {"task": "Make t.txt"}),
                    ],
                ),
                90,
            )
        )
    names = {t.name for t in listed.tools}
    assert {"read", "write", "shell", "git_status", "run_task"} <= names
    assert not any(n.startswith("mcp__") for n in names)  # MCP servers' tools are not re-exported
    assert "already here" in text(read)
    assert not shell.is_error and (workspace / "s.txt").read_text() == "made\n", text(shell)
    assert not task.is_error and "Made t.txt." in text(task), text(task)
    assert (workspace / "t.txt").read_text() == "by task"


def test_over_http_what_the_mode_forbids_is_refused_with_the_reason(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_web(workspace, home, server, monkeypatch, permission_mode="plan") as web:
        _, (shell,) = asyncio.run(
            asyncio.wait_for(_use(web.url, TOKEN, [("shell", {"command": "touch nope.txt"})]), 60)
        )
    assert shell.is_error and "Denied" in text(shell) and "plan" in text(shell)
    assert not (workspace / "nope.txt").exists()
