"""The agent's spans (agent/tracing.py) made with the OpenTelemetry SDK (the `otel` extra).

Named and attributed after OpenTelemetry's GenAI semantic conventions:
- a turn is `invoke_agent hearth` (`gen_ai.conversation.id`: the session; `hearth.status`: how it
  ended), the root of its trace, or the child of the `delegate` call that started a sub-agent;
- a model request is `chat <model>` (`gen_ai.usage.input_tokens`, `output_tokens`,
  `cache_read.input_tokens`, `gen_ai.response.finish_reasons`, `hearth.ttft_ms`);
- a tool call is `execute_tool <name>` (`gen_ai.tool.name`, `gen_ai.tool.call.id`,
  `hearth.tool.success`; a failed call is an error span).
Durations are the spans' own start and end. No prompt, reply, tool argument or tool output is
put in a span (they can hold secrets; they stay in the session store), nor an exception's
message: an error span names the exception's type only.

Importing this module needs the SDK; telemetry/traces.py imports it only when tracing is asked for.
The tracer provider is Hearth's own (never set as OpenTelemetry's global one).
"""

from __future__ import annotations

import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from urllib.parse import urlsplit

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
    SpanExportResult,
)

from hearth.agent.tracing import Outcome, Span
from hearth.core import environment
from hearth.core.errors import StopRun
from hearth.core.events import Finished, ToolResult
from hearth.core.protocols import ModelRequest, ModelResponse
from hearth.core.status import Status
from hearth.core.types import ToolCall

AGENT = "hearth"
CONNECT_TIMEOUT = 1.0  # seconds to reach the collector before a batch is dropped
RETRY_AFTER = 60.0  # seconds before a collector that could not be reached is tried again
log = logging.getLogger(__name__)
_FAILED = {Status.ERROR, Status.INTERRUPTED}  # a turn that ended so is an error span


def _requested(model: str) -> str:
    """The model asked for; none when the client leaves it to the server ("(server default)")."""
    return "" if model.startswith("(") else model


def _version() -> str:
    try:
        return version("hearth")
    except PackageNotFoundError:
        return "unknown"


class ReachableExporter(SpanExporter):
    """Sends through `inner` only when the collector answers a connection at once.

    The OTLP exporter retries a refused connection with backoff for its whole timeout: with the
    collector down, every run would end seconds late (the last spans go out at shutdown) and say
    nothing. Here a collector that cannot be reached costs one short connect; its spans are
    dropped, it is tried again a minute later, and the person is told once.
    """

    def __init__(self, inner: SpanExporter, url: str) -> None:
        parts = urlsplit(url)
        self.inner = inner
        self.url = url
        self.address = (parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
        self.down_until = 0.0
        self.warned = False

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if time.monotonic() < self.down_until:
            return SpanExportResult.FAILURE
        try:
            socket.create_connection(self.address, timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            self._down(f"cannot connect ({exc.strerror or type(exc).__name__})")
            return SpanExportResult.FAILURE
        result = self.inner.export(spans)
        if result is not SpanExportResult.SUCCESS:
            self._down("it did not accept them")
        return result

    def _down(self, why: str) -> None:
        self.down_until = time.monotonic() + RETRY_AFTER
        message = f"Traces were not sent to the OpenTelemetry collector at {self.url}: {why}."
        log.warning(message)
        if not self.warned:
            self.warned = True
            print(f"hearth: {message} Start the collector or unset otel_endpoint.", file=sys.stderr)

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)


class _Span:
    def __init__(self, span: trace.Span, *, named: bool = True) -> None:
        self.span = span
        self.named = named  # the span's name holds the model asked for

    def outcome(self, outcome: Outcome) -> None:
        span = self.span
        if isinstance(outcome, ModelResponse):
            usage = outcome.usage
            span.set_attribute("gen_ai.response.model", outcome.model)
            if outcome.model and not self.named:
                span.update_name(f"chat {outcome.model}")  # the server chose the model: name it
            span.set_attribute("gen_ai.usage.input_tokens", usage.prompt_tokens)
            span.set_attribute("gen_ai.usage.output_tokens", usage.completion_tokens)
            if usage.estimated:  # the server reported no usage: the counts are Hearth's estimate
                span.set_attribute("hearth.usage.estimated", True)
            else:
                span.set_attribute("gen_ai.usage.cache_read.input_tokens", usage.cached_tokens)
            if outcome.finish_reason:
                span.set_attribute("gen_ai.response.finish_reasons", [outcome.finish_reason])
            if outcome.timings.ttft_ms is not None:
                span.set_attribute("hearth.ttft_ms", round(outcome.timings.ttft_ms, 1))
        elif isinstance(outcome, ToolResult):
            span.set_attribute("hearth.tool.success", outcome.ok)
            if not outcome.ok:
                span.set_attribute("error.type", "tool_error")
                span.set_status(trace.Status(trace.StatusCode.ERROR))
        elif isinstance(outcome, Finished):
            span.set_attribute("hearth.status", str(outcome.status))
            if outcome.status in _FAILED:
                span.set_attribute("error.type", str(outcome.status))
                span.set_status(trace.Status(trace.StatusCode.ERROR))


class OtelTracer:
    """Spans through a tracer provider of this runtime's own, sent by `exporter`.

    `batch`: spans are sent in the background in batches (what a collector wants); without it each
    span is handed to the exporter as it ends (what a test reading an in-memory exporter wants).
    """

    def __init__(self, exporter: SpanExporter, *, batch: bool = True) -> None:
        attributes = {"service.name": AGENT, "service.version": _version()}
        if environment.otel_service_named():  # the person's name for this Hearth wins
            del attributes["service.name"]
        resource = Resource.create(attributes)
        self.provider = TracerProvider(resource=resource)
        processor = BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter)
        self.provider.add_span_processor(processor)
        self.tracer = self.provider.get_tracer("hearth", _version())

    def turn(self, session_id: str, model: str) -> AbstractContextManager[Span]:
        attributes = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": AGENT,
            "gen_ai.conversation.id": session_id,
        }
        if _requested(model):
            attributes["gen_ai.request.model"] = model
        return self._open(f"invoke_agent {AGENT}", trace.SpanKind.INTERNAL, attributes)

    def model_request(self, model: str, request: ModelRequest) -> AbstractContextManager[Span]:
        attributes: dict[str, Any] = {"gen_ai.operation.name": "chat"}
        model = _requested(model)
        if model:
            attributes["gen_ai.request.model"] = model
        if request.temperature is not None:
            attributes["gen_ai.request.temperature"] = request.temperature
        if request.max_tokens:
            attributes["gen_ai.request.max_tokens"] = request.max_tokens
        return _opened(
            self.tracer,
            f"chat {model}".strip(),
            trace.SpanKind.CLIENT,
            attributes,
            lambda span: _Span(span, named=bool(model)),
        )

    def tool_call(self, call: ToolCall) -> AbstractContextManager[Span]:
        attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.name,
            "gen_ai.tool.call.id": call.id,
            "gen_ai.tool.type": "function",
        }
        return self._open(f"execute_tool {call.name}", trace.SpanKind.INTERNAL, attributes)

    def shutdown(self) -> None:
        self.provider.shutdown()

    def _open(
        self, name: str, kind: trace.SpanKind, attributes: dict[str, Any]
    ) -> AbstractContextManager[Span]:
        return _opened(self.tracer, name, kind, attributes, _Span)


@contextmanager
def _opened(
    tracer: trace.Tracer,
    name: str,
    kind: trace.SpanKind,
    attributes: dict[str, Any],
    wrap: Callable[[trace.Span], Span],
) -> Iterator[Span]:
    # The current span while the block runs: what starts inside (a sub-agent's turn in a
    # `delegate` call) is its child. Exceptions are named by type, never by message.
    with tracer.start_as_current_span(
        name, kind=kind, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as span:
        try:
            yield wrap(span)
        except StopRun:
            raise  # how a turn ends, not a failure of the span's work
        except BaseException as exc:
            span.set_attribute("error.type", type(exc).__name__)
            span.set_status(trace.Status(trace.StatusCode.ERROR))
            raise
