"""What the agent tells a tracer: a span around each turn, each model request and each tool call.

The agent opens the span before the work and hands it the outcome (the turn's end, the model's
response, the tool's result) when the work is done. Spans opened while another is open are its
children: a tool call inside the turn, a sub-agent's turn inside the `delegate` call that started
it. telemetry/traces.py implements this with OpenTelemetry; `NO_TRACING` does nothing.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Protocol

from hearth.core.events import Finished, ToolResult
from hearth.core.protocols import ModelRequest, ModelResponse
from hearth.core.types import ToolCall

Outcome = Finished | ModelResponse | ToolResult


class Span(Protocol):
    def outcome(self, outcome: Outcome) -> None:
        """What the work came to; the span ends when its block does."""


class Tracer(Protocol):
    def turn(self, session_id: str, model: str) -> AbstractContextManager[Span]: ...

    def model_request(self, model: str, request: ModelRequest) -> AbstractContextManager[Span]: ...

    def tool_call(self, call: ToolCall) -> AbstractContextManager[Span]: ...

    def shutdown(self) -> None:
        """Send what is left and stop (when the runtime closes)."""


class _NoSpan:
    def outcome(self, outcome: Outcome) -> None:
        pass


class _NoTracing:
    def turn(self, session_id: str, model: str) -> AbstractContextManager[Span]:
        return nullcontext(_NoSpan())

    def model_request(self, model: str, request: ModelRequest) -> AbstractContextManager[Span]:
        return nullcontext(_NoSpan())

    def tool_call(self, call: ToolCall) -> AbstractContextManager[Span]:
        return nullcontext(_NoSpan())

    def shutdown(self) -> None:
        pass


NO_TRACING: Tracer = _NoTracing()
