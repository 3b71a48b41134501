"""The session API (`hearth.runtime.api`) is enough to drive a session, as the products use it:
open a runtime, open a session, send a message, read its events and state, change a setting,
resume it, and run a tool in the workspace's sandbox. Against the scripted server over HTTP,
with a real store and real git."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hearth.core.events import Event, ModeChanged, Status, ToolResult
from hearth.runtime import api
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer


@pytest.fixture(autouse=True)
def private_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def srv() -> Iterator[ScriptedServer]:
    server = ScriptedServer().start()
    yield server
    server.stop()


def settings(srv: ScriptedServer, workspace: Path) -> api.Settings:
    return api.Settings.from_keys(
        llm_url=srv.url,
        workspace=workspace,
        sandbox="process",
        permission_mode=api.PermissionMode.AUTO,
        checkpoints=False,
    )


def test_a_session_is_opened_sent_to_read_changed_and_resumed_through_the_api(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(
        ScriptedReply(
            tool_calls=[ScriptedCall(name="write", arguments={"path": "hello.txt", "content": "hi\n"})]
        ),
        ScriptedReply(text="Wrote it.\nTASK_COMPLETE"),
    )

    async def go() -> tuple[Any, list[Event], api.PermissionMode, list[Event]]:
        rt = await api.open_runtime(settings(srv, workspace))
        try:
            conv = api.open_conversation(rt)
            finished = await conv.send("Write hello.txt saying hi.")
            conv.set_mode(api.PermissionMode.PLAN)
            resumed = api.open_conversation(rt, resume=conv.id)
            return finished, list(conv.events), resumed.mode, list(resumed.events)
        finally:
            await rt.aclose()

    finished, events, resumed_mode, resumed_events = asyncio.run(go())
    assert finished.status is Status.DONE
    assert (workspace / "hello.txt").read_text() == "hi\n"
    assert [(e.name, e.ok) for e in events if isinstance(e, ToolResult)] == [("write", True)]
    assert isinstance(events[-1], ModeChanged) and events[-1].mode == "plan"
    assert resumed_mode is api.PermissionMode.PLAN  # the state comes back from the stored events
    assert [e.kind for e in resumed_events[: len(events)]] == [e.kind for e in events]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_product_runs_a_tool_in_the_workspace_sandbox_through_the_api(
    workspace: Path, srv: ScriptedServer
) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "new.txt").write_text("x\n")

    async def go() -> str:
        rt = await api.open_runtime(settings(srv, workspace), probe=False, mcp=False)
        try:
            return await api.git_status(api.GitStatusInput(), api.tool_context(rt))
        finally:
            await rt.aclose()

    assert "new.txt" in asyncio.run(go())
