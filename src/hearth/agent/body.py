"""The text of a grammar-mode `write`, asked for in a reply of its own.

The action names the file under the server's grammar; the next request, without a grammar, asks
for the file's text in a fenced block, which a small model writes as it would show code to a
person rather than escaped inside a JSON string. The two replies become the one reply the
session records (the action, then the block: see `hearth.llm.actions.parse_action`)."""

from __future__ import annotations

from typing import Any

from hearth.agent.tracing import Tracer
from hearth.core.protocols import DeltaSink, Model, ModelRequest, ModelResponse
from hearth.core.types import Message, Timings, Usage
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


async def with_body(
    model: Model,
    request: ModelRequest,
    action: ModelResponse,
    args: dict[str, Any],
    sink: DeltaSink | None,
    tracer: Tracer,
) -> ModelResponse:
    """The action's response with the file's text after it, as one response."""
    follow = body_request(request, action, args)
    with tracer.model_request(model.name, follow) as span:
        body = await model.complete(follow, sink)
        span.outcome(body)
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
