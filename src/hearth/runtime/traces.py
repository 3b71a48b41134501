"""OpenTelemetry traces without the SDK: spans built from the event log records and sent as OTLP
over HTTP in its JSON encoding (`POST {otel_endpoint}/v1/traces`, what an OpenTelemetry
Collector, Jaeger, Tempo or Phoenix accept on port 4318).

One trace per session turn: a `hearth.turn` span (the session, its status) with a child per model
request (`chat <model>`: input, cached and output tokens, time to first token) and per tool call
(`execute_tool <name>`: success), named and attributed after OpenTelemetry's GenAI conventions.
No prompt, reply or tool text is sent. Spans are sent when a turn ends (in a thread) and when
Hearth exits.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import threading
from typing import Any

import httpx

from hearth.runtime.config import Settings


def _ids(session: str, turn: int) -> tuple[str, str]:
    digest = hashlib.sha256(f"{session}/{turn}".encode()).hexdigest()
    return digest[:32], digest[32:48]  # trace id, the turn span's id


def _attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    return {"key": key, "value": {"stringValue": str(value)}}


class OtlpSpans(logging.Handler):
    """Turns `hearth.events` records (agent/eventlog.py) into spans and posts them."""

    def __init__(self, endpoint: str, *, timeout: float = 5.0) -> None:
        super().__init__(logging.INFO)
        self.url = endpoint.rstrip("/") + "/v1/traces"
        self.timeout = timeout
        self.pending: list[dict[str, Any]] = []
        self.turns: dict[str, tuple[int, int]] = {}  # session -> (turn number, start ns)
        self.count: dict[str, int] = {}
        self._guard = threading.Lock()  # not `lock`: logging.Handler holds that one around emit
        self._sending = threading.Lock()
        self.failures = 0
        atexit.register(self.flush)

    def emit(self, record: logging.LogRecord) -> None:
        data = record.__dict__
        session, kind = data.get("session"), data.get("event")
        if not session or not kind:
            return
        end = int(record.created * 1e9)
        with self._guard:
            if session not in self.turns:
                self.count[session] = self.count.get(session, 0) + 1
                self.turns[session] = (self.count[session], end)
            turn, start = self.turns[session]
            trace, parent = _ids(session, turn)
            if kind == "model_reply":
                took = int(float(data.get("duration_ms") or 0) * 1e6)
                attrs = {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": data.get("model") or "",
                    "gen_ai.usage.input_tokens": int(data.get("prompt_tokens") or 0),
                    "gen_ai.usage.output_tokens": int(data.get("completion_tokens") or 0),
                    "hearth.usage.cached_tokens": int(data.get("cached_tokens") or 0),
                    "hearth.usage.estimated": bool(data.get("estimated")),
                    "hearth.ttft_ms": float(data.get("ttft_ms") or 0.0),
                }
                self._span(trace, parent, f"chat {data.get('model') or ''}".strip(), end - took, end, attrs)
            elif kind == "tool_result":
                took = int(float(data.get("duration_ms") or 0) * 1e6)
                attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": data.get("tool") or ""}
                attrs["hearth.success"] = bool(data.get("success"))
                ok = bool(data.get("success"))
                self._span(trace, parent, f"execute_tool {data.get('tool')}", end - took, end, attrs, ok=ok)
            elif kind == "finished":
                del self.turns[session]
                attrs = {"hearth.session": session, "hearth.status": data.get("status") or ""}
                ok = data.get("status") == "done"
                self._span(trace, None, "hearth.turn", start, end, attrs, ok=ok, span_id=parent)
                threading.Thread(target=self.flush, daemon=True).start()

    def _span(
        self,
        trace: str,
        parent: str | None,
        name: str,
        start: int,
        end: int,
        attrs: dict[str, Any],
        *,
        ok: bool = True,
        span_id: str | None = None,
    ) -> None:
        span: dict[str, Any] = {
            "traceId": trace,
            "spanId": span_id or os.urandom(8).hex(),
            "name": name,
            "kind": 1 if parent is None else 3,  # internal for the turn, client for requests and tools
            "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(end),
            "attributes": [_attr(k, v) for k, v in attrs.items()],
            "status": {"code": 1 if ok else 2},
        }
        if parent:
            span["parentSpanId"] = parent
        self.pending.append(span)

    def flush(self) -> None:
        # one send at a time: the flush at exit waits for a turn's send still on its way
        with self._sending:
            self._send()

    def _send(self) -> None:
        with self._guard:
            spans, self.pending = self.pending, []
        if not spans:
            return
        body = {
            "resourceSpans": [
                {
                    "resource": {"attributes": [_attr("service.name", "hearth")]},
                    "scopeSpans": [{"scope": {"name": "hearth"}, "spans": spans}],
                }
            ]
        }
        try:
            httpx.post(self.url, json=body, timeout=self.timeout, trust_env=False)
        except httpx.HTTPError:
            self.failures += 1  # tracing never stops the work


def configure_traces(settings: Settings) -> OtlpSpans | None:
    """Install the span exporter when `otel_endpoint` is set (replacing an earlier one)."""
    events = logging.getLogger("hearth.events")
    for old in [h for h in events.handlers if isinstance(h, OtlpSpans)]:
        events.removeHandler(old)
        old.flush()
    if not settings.otel_endpoint:
        return None
    handler = OtlpSpans(settings.otel_endpoint)
    events.addHandler(handler)
    events.setLevel(logging.INFO)
    return handler
