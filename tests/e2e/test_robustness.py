"""What weak models really do, replayed through the real CLI and HTTP.

Each scenario must end with the task done or a clear stop reason: never a traceback, never a lost
event (every call in the store has its result, and the session ends with `finished`), never a
request that breaks the protocol.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from e2e.test_harness import reflecting
from hearth.core.events import Finished, ModelReply, Reflected, ToolResult
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import state_of

WRITE = {"path": "out.txt", "content": "ok"}
DONE = ScriptedReply(text="Wrote out.txt. TASK_COMPLETE")


def fenced() -> str:
    return "Writing.\n```json\n" + json.dumps({"name": "write", "arguments": WRITE}) + "\n```"


SCENARIOS = {
    "fenced json": ([ScriptedReply(text=fenced()), DONE], 0, True),
    "tool_call tags": (
        [
            ScriptedReply(
                text='<tool_call>{"name": "write", "arguments": ' + json.dumps(WRITE) + "}</tool_call>"
            ),
            DONE,
        ],
        0,
        True,
    ),
    "function xml": (
        [
            ScriptedReply(
                text="<function=write><parameter=path>out.txt</parameter>"
                "<parameter=content>ok</parameter></function>"
            ),
            DONE,
        ],
        0,
        True,
    ),
    "python call": ([ScriptedReply(text="write(path='out.txt', content='ok')"), DONE], 0, True),
    "truncated json": (
        [
            ScriptedReply(text='```json\n{"name": "write", "arguments": {"path": "out.txt", "content": "ok'),
            DONE,
        ],
        0,
        True,
    ),
    "unknown tool": (
        [
            ScriptedReply(text='```json\n{"name": "create_document", "arguments": {"file": "out.txt"}}\n```'),
            ScriptedReply(text=fenced()),
            DONE,
        ],
        0,
        True,
    ),
    "wrong types": (
        [
            ScriptedReply(
                tool_calls=[ScriptedCall(name="write", arguments={"path": ["out.txt"], "content": 5})]
            ),
            ScriptedReply(text=fenced()),
            DONE,
        ],
        0,
        True,
    ),
    "empty reply": ([ScriptedReply(text=""), ScriptedReply(text=fenced()), DONE], 0, True),
    "same call ten times": (
        [ScriptedReply(text='```json\n{"name": "read", "arguments": {"path": "missing.txt"}}\n```')] * 10,
        2,
        False,
    ),
    "huge tool output": (
        [
            ScriptedReply(
                tool_calls=[
                    ScriptedCall(
                        name="shell", arguments={"command": "head -c 5000000 /dev/zero | tr '\\\\0' a"}
                    )
                ]
            ),
            ScriptedReply(text=fenced()),
            DONE,
        ],
        0,
        True,
    ),
    "think never closes": (
        [ScriptedReply(text="<think>I should write the file and then"), ScriptedReply(text=fenced()), DONE],
        0,
        True,
    ),
    "stream dropped halfway": (
        [ScriptedReply(text=fenced(), drop_after=10), ScriptedReply(text=fenced()), DONE],
        0,
        True,
    ),
    "server error then recovery": (
        [ScriptedReply(status=503, error="loading model"), ScriptedReply(text=fenced()), DONE],
        0,
        True,
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_weak_model_behaviour(name: str, hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    replies, code, makes_file = SCENARIOS[name]
    server.add(*replies)
    res = hearth(
        "run",
        "Write ok into out.txt",
        "-w",
        str(workspace),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "2", "HEARTH_TOOL_MODE": "auto"},
    )
    assert "Traceback" not in res.stderr + res.stdout
    assert res.code == code, res.stdout[-1500:] + res.stderr
    lines = [line for line in res.json_lines() if line["type"] != "reflected"]  # reflection follows the end
    assert lines[-1]["type"] == "done" and (code == 0 or lines[-1]["reason"])
    assert (workspace / "out.txt").exists() == makes_file
    if makes_file:
        assert (workspace / "out.txt").read_text() == "ok"
    assert server.violations == []
    store = SessionStore(state_of(workspace) / "sessions.db")
    [info] = store.list_sessions()
    events = [e for e in store.events(info.id) if not isinstance(e, Reflected) and not reflecting(e)]
    assert isinstance(events[-1], Finished)
    calls = [c.id for e in events if isinstance(e, ModelReply) for c in e.tool_calls]
    results = [e.call_id for e in events if isinstance(e, ToolResult)]
    assert sorted(calls) == sorted(results)
    assert all(len(e.output) <= 20_000 for e in events if isinstance(e, ToolResult))
