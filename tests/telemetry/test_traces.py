"""OpenTelemetry traces (the `otel` extra): real sessions against the scripted server, their spans
read from the SDK's in-memory exporter, and from the real CLI sent over OTLP/HTTP (protobuf) to a
collector stand-in on 127.0.0.1."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from opentelemetry import trace
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from hearth.agent.policy import PermissionMode
from hearth.core.errors import HearthError
from hearth.core.events import Status, ToolResult
from hearth.runtime.config import Settings
from hearth.runtime.conversation import open_conversation
from hearth.runtime.session import open_runtime
from hearth.telemetry.otel import OtelTracer
from hearth.telemetry.traces import traces_url
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli

KEY = "sk-trace-5e4d3c2b1a0f"


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def run_session(
    ws: Path, srv: ScriptedServer, task: str, exporter: InMemorySpanExporter, **settings: Any
) -> tuple[Any, list[Any], str]:
    """One real turn through Conversation.send, its spans going to `exporter`; (how it finished,
    its events, its session)."""
    values: dict[str, Any] = {
        "llm_url": srv.url,
        "workspace": ws,
        "sandbox": "process",
        "permission_mode": PermissionMode.AUTO,
        "checkpoints": False,
        "tool_mode": "native",
        "retries": 0,
        **settings,
    }

    async def go() -> tuple[Any, list[Any], str]:
        rt = await open_runtime(Settings.from_keys(**values))
        rt.tracer = OtelTracer(exporter, batch=False)
        try:
            conv = open_conversation(rt)
            finished = await conv.send(task)
            return finished, list(conv.events), conv.id
        finally:
            await rt.aclose()

    return asyncio.run(go())


def named(spans: list[ReadableSpan], prefix: str) -> list[ReadableSpan]:
    return sorted((s for s in spans if s.name.startswith(prefix)), key=lambda s: s.start_time or 0)


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent else None


def test_a_session_with_a_tool_call_and_a_sub_agent_makes_one_nested_trace_with_token_counts(
    workspace: Path,
) -> None:
    (workspace / "a.txt").write_text("alpha\n")
    exporter = InMemorySpanExporter()
    with ScriptedServer() as srv:
        srv.add(
            ScriptedReply(
                tool_calls=[ScriptedCall(name="read", arguments={"path": "a.txt"})],
                usage={"prompt_tokens": 321, "completion_tokens": 17},
            ),
            call("read", path="missing.txt"),
            call("delegate", objective="CHILD-1 list the files", deliverable="their names"),
            ScriptedReply(text="Read it. TASK_COMPLETE"),
        )
        srv.route("CHILD-1", call("ls", path="."), ScriptedReply(text="a.txt\nTASK_COMPLETE"))
        finished, events, session = run_session(workspace, srv, "read a.txt", exporter)
        cached = list(srv.cached_tokens)
    assert finished.status is Status.DONE, finished.reason
    spans = list(exporter.get_finished_spans())

    turns = named(spans, "invoke_agent")
    assert [t.name for t in turns] == ["invoke_agent hearth", "invoke_agent hearth"]
    root, child = turns
    assert root.parent is None and root.status.status_code is StatusCode.UNSET
    assert root.attributes is not None and child.attributes is not None
    assert root.attributes["gen_ai.conversation.id"] == session
    assert root.attributes["hearth.status"] == "done" and child.attributes["hearth.status"] == "done"
    assert root.attributes["gen_ai.conversation.id"] != child.attributes["gen_ai.conversation.id"]
    assert {s.context.trace_id for s in spans} == {root.context.trace_id}  # one trace

    tools = named(spans, "execute_tool")
    by_name = {(s.attributes or {})["gen_ai.tool.name"]: s for s in tools}
    assert [(s.attributes or {})["gen_ai.tool.name"] for s in tools] == ["read", "read", "delegate", "ls"]
    read_ok, read_missing, delegate, ls = tools
    for span in (read_ok, read_missing, delegate):
        assert parent_of(span) == root.context.span_id  # the session's tool calls
    assert (read_ok.attributes or {})["hearth.tool.success"] is True
    assert (read_missing.attributes or {})["hearth.tool.success"] is False
    assert read_missing.status.status_code is StatusCode.ERROR  # the missing file is an error span
    # the sub-agent's turn is a child of the delegate call that started it; its own calls are its children
    assert parent_of(child) == delegate.context.span_id
    assert parent_of(ls) == child.context.span_id and by_name["ls"] is ls
    results = [e for e in events if isinstance(e, ToolResult)]
    assert [(s.attributes or {})["gen_ai.tool.call.id"] for s in tools[:3]] == [r.call_id for r in results]

    chats = named(spans, "chat")
    parents = [parent_of(s) for s in chats]
    assert parents.count(root.context.span_id) == 4 and parents.count(child.context.span_id) == 2
    first = chats[0].attributes or {}
    assert chats[0].name == "chat scripted-model" and first["gen_ai.operation.name"] == "chat"
    assert first["gen_ai.usage.input_tokens"] == 321 and first["gen_ai.usage.output_tokens"] == 17
    assert first["gen_ai.response.model"] == "scripted-model"
    for span in chats[1:]:
        attrs = span.attributes or {}
        assert int(attrs["gen_ai.usage.input_tokens"]) > 0 and int(attrs["gen_ai.usage.output_tokens"]) > 0  # type: ignore[arg-type]
    # the prefix cache the server reports, request by request
    cache_reads = sorted(int((s.attributes or {})["gen_ai.usage.cache_read.input_tokens"]) for s in chats[1:])  # type: ignore[arg-type]
    assert cache_reads == sorted(cached[1:]) and max(cache_reads) > 0
    for span in spans:  # durations: every span inside its turn
        assert span.start_time is not None and span.end_time is not None and span.start_time <= span.end_time
        assert root.start_time is not None and root.end_time is not None
        assert root.start_time <= span.start_time and span.end_time <= root.end_time
    assert (
        (delegate.start_time or 0)
        <= (child.start_time or 0)
        <= (child.end_time or 0)
        <= (delegate.end_time or 0)
    )
    # Hearth's provider is its own: OpenTelemetry's global one is left as it was (a proxy)
    assert not isinstance(trace.get_tracer_provider(), TracerProvider)


def test_secrets_in_tool_arguments_and_settings_reach_no_span(workspace: Path) -> None:
    shaped = "sk-live-0a1b2c3d4e5f6a7b8c9d"  # shaped like a key
    plain = "correct-horse-battery-staple-42"  # a password shaped like nothing
    exporter = InMemorySpanExporter()
    with ScriptedServer() as srv:
        srv.add(
            call("write", path="env.txt", content=f"API_KEY={shaped}\nDB_PASSWORD={plain}\n"),
            call("shell", command=f"echo token={plain} Authorization: Bearer {shaped}"),
            call("read", path=f"{plain}.txt"),  # a failing call: its error names the path
            ScriptedReply(text="Done. TASK_COMPLETE"),
        )
        finished, _, _ = run_session(workspace, srv, f"store {plain}", exporter, api_key=KEY)
    assert finished.status is Status.DONE, finished.reason
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans if s.name.startswith("execute_tool")] == [
        "execute_tool write",
        "execute_tool shell",
        "execute_tool read",
    ]
    dumped = "\n".join(s.to_json() for s in spans)
    for secret in (shaped, plain, KEY):
        assert secret not in dumped


def test_a_failed_model_request_is_an_error_span_named_by_type_not_message(workspace: Path) -> None:
    exporter = InMemorySpanExporter()
    with ScriptedServer() as srv:
        srv.add(ScriptedReply(status=401, error=f"bad key {KEY}"))
        finished, _, _ = run_session(workspace, srv, "hi", exporter)
    assert finished.status is Status.ERROR
    (chat,) = named(list(exporter.get_finished_spans()), "chat")
    (turn,) = named(list(exporter.get_finished_spans()), "invoke_agent")
    assert chat.status.status_code is StatusCode.ERROR and (chat.attributes or {})["error.type"]
    assert turn.status.status_code is StatusCode.ERROR and (turn.attributes or {})["hearth.status"] == "error"
    assert KEY not in "".join(s.to_json() for s in exporter.get_finished_spans())


def test_sub_agents_running_side_by_side_each_nest_under_the_decompose_call(workspace: Path) -> None:
    exporter = InMemorySpanExporter()
    with ScriptedServer() as srv:
        srv.add(
            call(
                "decompose",
                tasks=[
                    {"id": "a", "objective": "TASK-A list", "deliverable": "names"},
                    {"id": "b", "objective": "TASK-B list", "deliverable": "names"},
                ],
            ),
            ScriptedReply(text="Both done. TASK_COMPLETE"),
        )
        for marker in ("TASK-A", "TASK-B"):
            srv.route(marker, call("ls", path="."), ScriptedReply(text="none\nTASK_COMPLETE"))
        finished, _, _ = run_session(workspace, srv, "split it", exporter)
    assert finished.status is Status.DONE, finished.reason
    spans = list(exporter.get_finished_spans())
    root, *children = named(spans, "invoke_agent")
    (decompose,) = named(spans, "execute_tool decompose")
    assert parent_of(decompose) == root.context.span_id and len(children) == 2
    assert all(parent_of(c) == decompose.context.span_id for c in children)
    lists = named(spans, "execute_tool ls")
    assert sorted(parent_of(s) or 0 for s in lists) == sorted(c.context.span_id for c in children)


def test_a_compactions_summary_request_is_a_model_span_of_the_turn(workspace: Path) -> None:
    from agent.test_compaction import make, read_call

    replies = [
        ScriptedReply(text="thinking out loud " * 60, tool_calls=read_call(i).tool_calls) for i in range(10)
    ]
    agent, model = make(workspace, replies, 3000)
    exporter = InMemorySpanExporter()
    agent = dataclasses.replace(agent, tracer=OtelTracer(exporter, batch=False))
    finished = asyncio.run(agent.run("read the files"))
    assert finished.status is Status.DONE, finished.reason
    summaries = [r for r in model.requests if "You summarise" in r["messages"][0]["content"]]
    assert summaries
    spans = list(exporter.get_finished_spans())
    (turn,) = named(spans, "invoke_agent")
    chats = named(spans, "chat")
    assert len(chats) == len(model.requests)  # the agent's requests and the summaries alike
    assert all(parent_of(s) == turn.context.span_id for s in chats)


def test_spans_name_the_service_hearth_unless_the_person_names_it(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, expected in (("", "hearth"), ("hearth-laptop", "hearth-laptop")):
        monkeypatch.setenv("OTEL_SERVICE_NAME", name)
        exporter = InMemorySpanExporter()
        with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")]) as srv:
            run_session(workspace, srv, "hi", exporter)
        (turn,) = named(list(exporter.get_finished_spans()), "invoke_agent")
        assert turn.resource.attributes["service.name"] == expected


def test_the_sampler_variable_decides_per_turn(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "always_off")
    exporter = InMemorySpanExporter()
    with ScriptedServer([call("ls", path="."), ScriptedReply(text="Hi. TASK_COMPLETE")]) as srv:
        finished, _, _ = run_session(workspace, srv, "hi", exporter)
    assert finished.status is Status.DONE and exporter.get_finished_spans() == ()


def test_the_endpoint_setting_must_be_an_http_url() -> None:
    assert traces_url("http://127.0.0.1:4318") == "http://127.0.0.1:4318/v1/traces"
    assert traces_url("https://otel.example/v1/traces/") == "https://otel.example/v1/traces"
    for bad in ("127.0.0.1:4318", "ftp://host:4318", "http://"):
        with pytest.raises(HearthError, match="otel_endpoint"):
            traces_url(bad)


# -- over OTLP/HTTP from the real command line ----------------------------------------------------


class Collector(BaseHTTPRequestHandler):
    requests: ClassVar[list[ExportTraceServiceRequest]] = []
    raw: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/v1/traces" and self.headers.get("Content-Type") == "application/x-protobuf":
            self.raw.append(body)
            self.requests.append(ExportTraceServiceRequest.FromString(body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    Collector.requests, Collector.raw = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def received() -> list[Any]:
    return [
        s for r in Collector.requests for rs in r.resource_spans for ss in rs.scope_spans for s in ss.spans
    ]


def attrs(span: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kv in span.attributes:
        kind = kv.value.WhichOneof("value")
        out[kv.key] = getattr(kv.value, kind)
    return out


def test_the_cli_sends_the_spans_to_a_collector_over_otlp_http(
    hearth: HearthCli, workspace: Path, collector: str
) -> None:
    (workspace / "a.txt").write_text("alpha\n")
    script = [
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "a.txt"})]),
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
    assert Collector.requests, "nothing reached the collector"
    assert all(KEY.encode() not in body for body in Collector.raw)
    resource = {
        kv.key: kv.value.string_value for kv in Collector.requests[0].resource_spans[0].resource.attributes
    }
    assert resource["service.name"] == "hearth"
    found = received()
    (turn,) = [s for s in found if s.name == "invoke_agent hearth"]
    chats = [s for s in found if s.name.startswith("chat")]
    (tool,) = [s for s in found if s.name.startswith("execute_tool")]
    assert len(chats) == 2
    assert {s.trace_id for s in found} == {turn.trace_id} and not turn.parent_span_id
    assert all(s.parent_span_id == turn.span_id for s in [*chats, tool])
    assert attrs(tool)["gen_ai.tool.name"] == "read" and attrs(tool)["hearth.tool.success"] is True
    assert all(attrs(c)["gen_ai.usage.input_tokens"] > 0 for c in chats)
    assert all(attrs(c)["gen_ai.usage.output_tokens"] > 0 for c in chats)
    assert attrs(turn)["hearth.status"] == "done"
    session = next(line["session"] for line in res.json_lines() if line.get("session"))
    assert attrs(turn)["gen_ai.conversation.id"] == session


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
        # said once, and the spans dropped at once rather than retried until the export timeout
        assert res.stderr.count("Traces were not sent to the OpenTelemetry collector") == 1, res.stderr


def test_an_unreachable_collector_is_not_retried_and_is_named_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from opentelemetry.sdk.trace.export import SpanExportResult

    from hearth.telemetry.otel import ReachableExporter

    class Inner(InMemorySpanExporter):
        calls = 0

        def export(self, spans):  # type: ignore[no-untyped-def]
            Inner.calls += 1
            return super().export(spans)

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exporter = ReachableExporter(Inner(), f"http://127.0.0.1:{port}/v1/traces")
    assert exporter.export([]) is SpanExportResult.FAILURE
    assert exporter.export([]) is SpanExportResult.FAILURE
    assert Inner.calls == 0  # the OTLP exporter (which retries with backoff) was never asked
    assert capsys.readouterr().err.count(f"127.0.0.1:{port}") == 1


def test_without_the_extra_a_set_endpoint_is_a_clear_error(hearth, workspace: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The SDK made unimportable for this process, as on an install without `hearth[otel]`.
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(
        "import sys\nfor name in ('opentelemetry.sdk', 'opentelemetry.exporter'):\n    sys.modules[name] = None\n"
    )
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")]) as server:
        env = {"HEARTH_LLM_URL": server.url, "PYTHONPATH": str(hide), "HEARTH_TOOL_MODE": "native"}
        res = hearth("run", "hi", "-w", str(workspace), "--json", env=env)
        assert res.code == 0, res.stderr[-1500:]  # no endpoint: nothing asked, nothing missing
        env["HEARTH_OTEL_ENDPOINT"] = "http://127.0.0.1:4318"
        res = hearth("run", "hi", "-w", str(workspace), "--json", env=env)
        assert res.code != 0 and "Traceback" not in res.stderr
        assert "OpenTelemetry is not installed" in res.stderr and "pip install 'hearth[otel]'" in res.stderr
        doctor = hearth("doctor", "-w", str(workspace), env=env)
    (line,) = [x for x in doctor.stdout.splitlines() if "traces" in x]
    assert "OpenTelemetry is not installed" in line and "pip install 'hearth[otel]'" in line
    assert doctor.code == 1


def test_doctor_says_where_spans_go(hearth, workspace: Path, server: ScriptedServer) -> None:  # type: ignore[no-untyped-def]
    env = {"HEARTH_LLM_URL": server.url, "HEARTH_OTEL_ENDPOINT": "http://127.0.0.1:4318"}
    res = hearth("doctor", "-w", str(workspace), env=env)
    (line,) = [x for x in res.stdout.splitlines() if "traces" in x]
    assert line.startswith("✓") and line.endswith(
        "OpenTelemetry spans over OTLP/HTTP to http://127.0.0.1:4318/v1/traces"
    )
    env["HEARTH_OTEL_ENDPOINT"] = "localhost:4318"
    res = hearth("doctor", "-w", str(workspace), env=env)
    (line,) = [x for x in res.stdout.splitlines() if "traces" in x]
    assert not line.startswith("✓") and "is not an http(s) URL" in line and res.code == 1
