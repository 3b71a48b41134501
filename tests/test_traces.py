"""OpenTelemetry traces as OTLP/HTTP JSON, received by a collector stand-in on 127.0.0.1 from the
real CLI: a turn span with a child per model request (token counts) and per tool call."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer

KEY = "sk-trace-5e4d3c2b1a0f"


class Collector(BaseHTTPRequestHandler):
    bodies: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/v1/traces" and self.headers.get("Content-Type", "").startswith("application/json"):
            self.bodies.append(json.loads(raw))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    Collector.bodies = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def spans() -> list[dict[str, Any]]:
    return [
        s for b in Collector.bodies for r in b["resourceSpans"] for ss in r["scopeSpans"] for s in ss["spans"]
    ]


def attrs(span: dict[str, Any]) -> dict[str, Any]:
    return {a["key"]: next(iter(a["value"].values())) for a in span["attributes"]}


def test_spans_for_the_turn_model_requests_and_tools(hearth, workspace: Path, collector: str) -> None:  # type: ignore[no-untyped-def]
    (workspace / "a.txt").write_text("alpha\n")
    script = [
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "a.txt"})]),
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "missing.txt"})]),
        ScriptedReply(text="Read it. TASK_COMPLETE"),
    ]
    with ScriptedServer(script) as server:
        res = hearth(
            "run",
            "read a.txt",
            "-w",
            str(workspace),
            "--json",
            "--permission",
            "auto",
            env={
                "HEARTH_LLM_URL": server.url,
                "HEARTH_RETRIES": "0",
                "HEARTH_API_KEY": KEY,
                "HEARTH_OTEL_ENDPOINT": collector,
                "HEARTH_TOOL_MODE": "native",
            },
        )
        assert res.code == 0, res.stderr[-1500:]
    found = spans()
    assert KEY not in json.dumps(Collector.bodies)
    assert Collector.bodies[0]["resourceSpans"][0]["resource"]["attributes"][0]["value"] == {
        "stringValue": "hearth"
    }
    (turn,) = [s for s in found if s["name"] == "hearth.turn"]
    chats = [s for s in found if s["name"].startswith("chat")]
    tools = [s for s in found if s["name"].startswith("execute_tool")]
    assert len(chats) == 3 and len(tools) == 2
    assert {s["traceId"] for s in found} == {turn["traceId"]} and len(turn["traceId"]) == 32
    assert all(s["parentSpanId"] == turn["spanId"] for s in chats + tools) and "parentSpanId" not in turn
    first = attrs(chats[0])
    assert first["gen_ai.operation.name"] == "chat" and int(first["gen_ai.usage.input_tokens"]) > 0
    assert int(first["gen_ai.usage.output_tokens"]) > 0
    assert [attrs(t)["gen_ai.tool.name"] for t in tools] == ["read", "read"]
    assert [t["status"]["code"] for t in tools] == [1, 2]  # the missing file is an error span
    assert attrs(turn)["hearth.status"] == "done" and turn["status"]["code"] == 1
    for span in found:
        assert int(span["startTimeUnixNano"]) <= int(span["endTimeUnixNano"])
        assert int(turn["startTimeUnixNano"]) <= int(span["startTimeUnixNano"]) + 1_000_000


def test_no_endpoint_no_spans_and_a_dead_collector_does_not_stop_the_work(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")]) as server:
        res = hearth(
            "run",
            "hi",
            "-w",
            str(workspace),
            "--json",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_OTEL_ENDPOINT": "http://127.0.0.1:1"},
        )
        assert res.code == 0 and "Traceback" not in res.stderr
