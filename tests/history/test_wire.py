"""The one encoding of events: every event type in core/events.py is sent whole, under the
documented names, and JSON Lines, the export, the history route, the WebSocket and SSE agree."""

from __future__ import annotations

import inspect
import itertools
import json
import re
import types
import typing
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from hearth.core import events as events_module
from hearth.core.events import (
    EventBase,
    Finished,
    ModelReply,
    Status,
    ToolResult,
    UserMessage,
    WorkUpdated,
)
from hearth.core.types import CallFormat, ToolCall, Usage
from hearth.core.work import Todo, WorkState
from hearth.history import wire
from hearth.history.export import QUIET, to_markdown
from hearth.runtime.session import open_store
from hearth.testing.script import ScriptedCall, ScriptedReply
from support import ROOT
from websupport import Web, receive_until

EVENTS_PAGE = ROOT / "docs" / "web.md"  # its table of messages
ENVELOPE = {"session"}
LIVE_ONLY = {"delta", "approval_request", "plan_approval", "answered", "mode_changed"}
T0 = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


def event_classes() -> list[type[EventBase]]:
    """Every concrete event type core/events.py defines (the walk a new type cannot escape)."""
    found = [
        cls
        for _, cls in inspect.getmembers(events_module, inspect.isclass)
        if issubclass(cls, EventBase) and cls is not EventBase and cls.__module__ == events_module.__name__
    ]
    in_union = set(typing.get_args(typing.get_args(events_module.Event)[0]))
    assert set(found) == in_union, "every event class must be in the Event union, and only those"
    return sorted(found, key=lambda c: c.__name__)


# -- a sample of any event, every field set to a value that can be found again -------------------


def sample(cls: type[BaseModel], path: str, counter: Iterator[int]) -> BaseModel:
    values = {name: _value(f.annotation, f"{path}.{name}", counter) for name, f in cls.model_fields.items()}
    values.pop("kind", None)
    return cls(**values)


def _value(tp: Any, path: str, counter: Iterator[int]) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _value(args[0], path, counter)
    if origin in (typing.Union, types.UnionType):
        return _value(next(a for a in args if a is not type(None)), path, counter)
    if origin is Literal:
        return args[0]
    if origin is tuple:
        return (_value(args[0], f"{path}.0", counter),)
    if origin is list:
        return [_value(args[0], f"{path}.0", counter)]
    if origin is dict:
        return {"key": _value(args[1], f"{path}.key", counter)}
    if tp is str or tp is Any:
        return f"<{path}>"
    if tp is bool:
        return True
    if tp is int:
        return next(counter)
    if tp is float:
        return next(counter) + 0.25
    if tp is datetime:
        return T0 + timedelta(minutes=next(counter))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return next(iter(tp))
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return sample(tp, path, counter)
    raise AssertionError(f"no sample for {path}: {tp!r}; teach _value this type")


def leaves(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, f"{path}.{key}")
    elif isinstance(data, list):
        for value in data:
            yield from leaves(value, path)
    elif data is not None and not isinstance(data, bool):
        yield path, data


def samples() -> list[EventBase]:
    counter = itertools.count(1001)
    out = []
    for cls in event_classes():
        event = sample(cls, cls.__name__, counter)
        assert isinstance(event, EventBase)
        out.append(event)
    return out


# -- the encoding itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", event_classes(), ids=lambda c: c.__name__)
def test_every_event_type_is_sent_whole_and_documented(cls: type[EventBase]) -> None:
    event = sample(cls, cls.__name__, itertools.count(1001))
    assert isinstance(event, EventBase)
    messages = wire.Encoder().encode(event)  # type: ignore[arg-type]
    assert messages and all(m["type"] and m["ts"] for m in messages)
    json.dumps(messages)  # plain JSON, nothing left to a default=
    sent = {value for m in messages for _, value in leaves(m)}
    for where, value in leaves(event.model_dump(mode="json")):
        if where.rsplit(".", 1)[-1] in wire.NOT_SENT or where == ".kind":
            continue
        assert value in sent, f"{cls.__name__}{where} = {value!r} is not in {messages}"
    documented = EVENTS_PAGE.read_text()
    for m in messages:
        assert f"| `{m['type']}` |" in documented, f"docs/web.md's table of messages lacks {m['type']!r}"
        for key in m:
            if key not in ("type", "ts"):
                row = re.search(rf"^\| `{m['type']}` \|(.*)$", documented, re.M)
                assert row and re.search(rf"\b{key}\b", row.group(1)), (
                    f"docs/web.md's {m['type']} row lacks {key}"
                )


def test_the_seed_names_are_kept() -> None:
    """agent_computer's clients read these names; the snapshot pins them."""
    call = ToolCall(id="c1", name="shell", arguments={"command": "ls"}, raw_arguments='{"command": "ls"}')
    encoder = wire.Encoder()
    got = [
        m
        for e in (
            UserMessage(text="list", ts=T0),
            ModelReply(
                text="Looking.",
                thinking="hmm",
                tool_calls=(call,),
                call_format=CallFormat.NATIVE,
                model="m",
                usage=Usage(prompt_tokens=100, cached_tokens=80, completion_tokens=7),
                ts=T0,
            ),
            ToolResult(call_id="c1", name="shell", output="a.txt\x1b[31m\n", duration_ms=12.5, ts=T0),
            WorkUpdated(state=WorkState(todos=[Todo(id=1, text="list files")]), ts=T0),
            Finished(status=Status.DONE, final_text="One file.", ts=T0),
        )
        for m in encoder.encode(e)
    ]
    ts = "2030-01-02T03:04:05Z"
    assert got == [
        {"type": "user_message", "ts": ts, "text": "list"},
        {"type": "thinking", "ts": ts, "iteration": 1, "text": "hmm", "tokens_used": 107},
        {"type": "text", "ts": ts, "text": "Looking."},
        {
            "type": "tool_call",
            "ts": ts,
            "tool_call_id": "c1",
            "tool": "shell",
            "input": {"command": "ls"},
            "repaired": False,
            "error": None,
            "format": "native",
        },
        {
            "type": "usage",
            "ts": ts,
            "prompt_tokens": 100,
            "cached_tokens": 80,
            "completion_tokens": 7,
            "estimated": False,
            "ttft_ms": None,
            "total_ms": 0.0,
            "model": "m",
            "finish_reason": None,
            "format": "native",
        },
        {
            "type": "tool_result",
            "ts": ts,
            "tool_call_id": "c1",
            "tool": "shell",
            "output": "a.txt\n",  # control sequences removed
            "success": True,
            "duration_ms": 12.5,
            "result_preview": "a.txt\n",
        },
        {
            "type": "task_update",
            "ts": ts,
            "tasks": [
                {
                    "id": 1,
                    "text": "list files",
                    "status": "pending",
                    "parent": None,
                    "changed": "",
                    "next": "",
                }
            ],
            "plan": [],
            "task": {
                "objective": "",
                "completion_gate": "",
                "done_count": 0,
                "total_count": None,
                "remaining": [],
            },
            "summary": "Todos:\n[ ] 1. list files",
        },
        {
            "type": "done",
            "ts": ts,
            "status": "done",
            "reason": "",
            "text": "One file.",
            "wake_at": None,
            "exit_code": 0,
            "iterations": 1,
            "model": "m",
            "usage": {"prompt_tokens": 100, "cached_tokens": 80, "completion_tokens": 7},
        },
    ]


def test_a_field_that_would_hide_the_envelope_is_refused() -> None:
    class Clash(EventBase):
        kind: Literal["clash"] = "clash"
        session: str

    with pytest.raises(TypeError, match="session"):
        wire.Encoder().encode(Clash(session="s"))  # type: ignore[arg-type]


# -- every transport sends the same messages -----------------------------------------------------------


def _strip(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in m.items() if k not in ENVELOPE} for m in messages]


def test_jsonl_export_history_and_websocket_agree_on_every_event_type(web: Web, hearth: Any) -> None:
    events = samples()
    store = open_store(web.workspace)
    sid = store.create(str(web.workspace), "scripted-model", session_id="every-kind")
    for event in events:
        store.append(sid, event)  # type: ignore[arg-type]
    store.close()
    expected = wire.encode_all(events)  # type: ignore[arg-type]
    kinds_sent = {m["type"] for m in expected}
    assert len(kinds_sent) >= len(events)

    shown = hearth("sessions", "show", sid, "-w", str(web.workspace))
    assert shown.code == 0, shown.stderr
    jsonl = [json.loads(line) for line in shown.stdout.splitlines()]
    assert all(line["session"] == sid for line in jsonl)

    exported = hearth("sessions", "export", sid, "--format", "json", "-w", str(web.workspace))
    assert exported.code == 0, exported.stderr
    export = json.loads(exported.stdout)

    with web.client() as api:
        history = api.get(f"/api/sessions/{sid}/history").json()["events"]
    with web.ws(f"/ws/{sid}") as ws:
        hello = json.loads(ws.recv(timeout=10))

    assert _strip(jsonl) == expected
    assert export["events"] == expected
    assert history == expected
    assert hello["history"] == expected

    markdown = to_markdown(events)  # type: ignore[arg-type]
    for m in expected:
        if m["type"] in QUIET:
            continue
        texts = [v for k, v in leaves(m) if isinstance(v, str) and v.startswith("<")]
        assert any(t in markdown for t in texts), f"the Markdown export drops {m['type']}"


def test_live_websocket_and_sse_send_what_the_history_keeps(web: Web) -> None:
    web.model.add(
        ScriptedReply(tool_calls=[ScriptedCall(name="write", arguments={"path": "a.txt", "content": "x"})]),
        ScriptedReply(text="Wrote it.\nTASK_COMPLETE"),
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "a.txt"})]),
        ScriptedReply(text="It says x.\nTASK_COMPLETE"),
    )
    with web.ws("/ws/live") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "write a.txt"}))
        over_ws = receive_until(ws, "done")
    assert all(m["session"] == "live" for m in over_ws)
    with (
        web.client() as api,
        api.stream("POST", "/api/chat/live/stream", json={"message": "read a.txt"}) as resp,
    ):
        over_sse = [json.loads(line[6:]) for line in resp.iter_lines() if line.startswith("data: ")]
    with web.client() as api:
        history = api.get("/api/sessions/live/history").json()["events"]
    # the reflection may still be asking the model when the second task starts: its cost then
    # reaches the stream that watches the session by that time
    live = [
        m
        for m in _strip(over_ws) + over_sse
        if m["type"] not in LIVE_ONLY | {"reflected"} and m.get("purpose") != "reflection"
    ]
    assert history[0]["type"] == "session_started"
    # Between the two tasks no one watched: the session ended there, and reflection on its work
    # was recorded with what its request cost (sent live only to whoever watches then).
    kinds = [m["type"] for m in history]
    assert kinds.count("reflected") >= 1 and kinds.index("reflected") > kinds.index("done")
    reflecting = [m for m in history if m["type"] == "model_used" and m["purpose"] == "reflection"]
    assert reflecting and history.index(reflecting[0]) == kinds.index("reflected") - 1
    assert live == [m for m in history[1:] if m["type"] != "reflected" and m not in reflecting]
    assert [m["type"] for m in over_sse if m["type"] not in LIVE_ONLY][-1] == "done"
