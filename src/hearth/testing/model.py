"""A scripted `Model` in the same process: fast loop tests without HTTP.

It takes the same replies as the scripted server and checks the same
protocol invariants on every request it is given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hearth.core.errors import ContextOverflow, ModelError
from hearth.core.protocols import Delta, DeltaSink, ModelRequest, ModelResponse, RawToolCall
from hearth.core.types import Timings, Usage
from hearth.llm.client import classify_error
from hearth.testing.script import ScriptedReply, ScriptItem, check_request, estimate_tokens


class ScriptedModel:
    def __init__(self, script: Sequence[ScriptItem], name: str = "scripted-model") -> None:
        self.script = list(script)
        self._name = name
        self.requests: list[dict[str, Any]] = []
        self.violations: list[str] = []

    @property
    def name(self) -> str:
        return self._name

    async def complete(self, request: ModelRequest, on_delta: DeltaSink | None = None) -> ModelResponse:
        body: dict[str, Any] = {"messages": [m.to_wire() for m in request.messages]}
        if request.tools:
            body["tools"] = [t.to_wire() for t in request.tools]
        if request.max_tokens is not None:
            body["max_tokens"] = request.max_tokens
        self.requests.append(body)
        problems = check_request(body)
        if problems:
            self.violations.extend(problems)
            raise ModelError("protocol violation: " + "; ".join(problems))
        if not self.script:
            self.violations.append("the script has no more replies")
            raise ModelError("the script has no more replies")
        item = self.script.pop(0)
        reply = item if isinstance(item, ScriptedReply) else item(body)
        if reply.status >= 400:
            err = classify_error(f"HTTP {reply.status}: {reply.error}", stream=False)
            if isinstance(err, ContextOverflow):
                raise err
            raise ModelError(f"HTTP {reply.status}: {reply.error}", retryable=False)
        if on_delta:
            if reply.reasoning:
                on_delta(Delta("thinking", reply.reasoning))
            if reply.text:
                on_delta(Delta("text", reply.text))
        calls = tuple(
            RawToolCall(
                id=c.id or f"call_m{len(self.requests)}_{i}",
                name=c.name,
                arguments=c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments),
            )
            for i, c in enumerate(reply.tool_calls)
        )
        prompt = json.dumps(body)
        return ModelResponse(
            content=reply.text,
            reasoning=reply.reasoning,
            tool_calls=calls,
            finish_reason=reply.finish_reason or ("tool_calls" if calls else "stop"),
            usage=Usage(prompt_tokens=estimate_tokens(prompt), completion_tokens=estimate_tokens(reply.text)),
            timings=Timings(ttft_ms=0.0, total_ms=0.0),
            model=self._name,
        )
