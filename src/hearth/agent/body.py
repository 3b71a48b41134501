"""The text of a grammar-mode `write`, asked for in a reply of its own.

The action names the file under the server's grammar; the next request, without a grammar, asks
for the file's text in a fenced block, which a small model writes as it would show code to a
person rather than escaped inside a JSON string. The two replies become the one reply the
session records (the action, then the block: see `hearth.llm.actions.parse_action`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

from hearth.agent.tracing import Tracer
from hearth.core.events import Event, ModelReply, ToolResult
from hearth.core.protocols import DeltaSink, Model, ModelRequest, ModelResponse
from hearth.core.types import Message, Timings, Usage
from hearth.llm.actions import BadAction, body_text
from hearth.prompts import render


def body_request(request: ModelRequest, action: ModelResponse, args: dict[str, Any]) -> ModelRequest:
    """The request for the text of the write `action` chose (`args`: its arguments so far)."""
    ask = render("action_body", path=str(args.get("path") or "the file"))
    return ModelRequest(
        messages=[
            *request.messages,
            Message(role="assistant", content=action.content.strip()),
            Message(role="user", content=ask),
        ],
        temperature=request.temperature,
        max_tokens=request.max_tokens,
        extra={k: v for k, v in request.extra.items() if k != "response_format"},
    )


# A text the model sent before for the same file, and that was refused, is asked for once more
# at this temperature: at a low one the 1.5B sent the same broken file three times running.
RETRY_TEMPERATURE = 0.9


# The refusals of a write for what its text is (it would break the file, it changes nothing ...),
# not for the file's state (not read yet): the same text would be refused again.
_FOR_THE_TEXT = ("Not changed:", "Not written:")


def refused_texts(history: Sequence[Event], path: str) -> set[str]:
    """The texts of this file's writes refused for what they are, in the session so far."""
    failed = {
        e.call_id
        for e in history
        if isinstance(e, ToolResult) and not e.ok and any(m in e.output[:40] for m in _FOR_THE_TEXT)
    }
    return {
        str(call.arguments.get("content"))
        for e in history
        if isinstance(e, ModelReply)
        for call in e.tool_calls
        if call.name == "write" and call.id in failed and call.arguments.get("path") == path
    }


async def with_body(
    model: Model,
    request: ModelRequest,
    action: ModelResponse,
    args: dict[str, Any],
    sink: DeltaSink | None,
    tracer: Tracer,
    refused: Collection[str] = (),
) -> ModelResponse:
    """The action's response with the file's text after it, as one response. A text that was
    refused before (`refused`) is asked for again, once, with more randomness."""
    follow = body_request(request, action, args)
    body = await _ask(model, follow, sink, tracer)
    if refused and _text(body.content, args) in refused:
        again = replace(follow, temperature=max(RETRY_TEMPERATURE, follow.temperature or 0.0))
        body = await _ask(model, again, sink, tracer)
    return ModelResponse(
        content=action.content.strip() + "\n" + body.content,
        reasoning="\n".join(r for r in (action.reasoning, body.reasoning) if r),
        tool_calls=(),
        finish_reason=body.finish_reason,
        usage=Usage(
            prompt_tokens=action.usage.prompt_tokens + body.usage.prompt_tokens,
            cached_tokens=action.usage.cached_tokens + body.usage.cached_tokens,
            completion_tokens=action.usage.completion_tokens + body.usage.completion_tokens,
            estimated=action.usage.estimated or body.usage.estimated,
        ),
        timings=Timings(
            ttft_ms=action.timings.ttft_ms,
            total_ms=action.timings.total_ms + body.timings.total_ms,
        ),
        model=action.model,
    )


async def _ask(model: Model, request: ModelRequest, sink: DeltaSink | None, tracer: Tracer) -> ModelResponse:
    with tracer.model_request(model.name, request) as span:
        response = await model.complete(request, sink)
        span.outcome(response)
    return response


def _text(reply: str, args: dict[str, Any]) -> str | None:
    try:
        return body_text(reply, str(args.get("path") or "the file"))
    except BadAction:
        return None
