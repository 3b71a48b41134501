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

Importing this module needs the SDK; runtime/traces.py imports it only when tracing is asked for.
The tracer provider is Hearth's own (never set as OpenTelemetry's global one).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter

from hearth.agent.tracing import Outcome, Span
from hearth.core.errors import StopRun
from hearth.core.events import Finished, ToolResult
from hearth.core.protocols import ModelRequest, ModelResponse
from hearth.core.status import Status
from hearth.core.types import ToolCall

AGENT = "hearth"
_FAILED = {Status.ERROR, Status.INTERRUPTED}  # a turn that ended so is an error span


def _requested(model: str) -> str:
    """The model asked for; none when the client leaves it to the server ("(server default)")."""
    return "" if model.startswith("(") else model


def _version() -> str:
    try:
        return version("hearth")
    except PackageNotFoundError:
        return "unknown"


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
        if os.environ.get("OTEL_SERVICE_NAME"):  # the person's name for this Hearth wins
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
