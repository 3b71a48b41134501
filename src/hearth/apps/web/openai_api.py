"""Hearth as an OpenAI-compatible model: `/v1/models` and `/v1/chat/completions`.

Any chat client (the `openai` package, Open WebUI) can send a task. Each request runs in a
new session: the last user message is the task, earlier turns come along as context. While
streaming, the agent's work (its thinking, text and tool calls) arrives as `reasoning_content`,
which chat clients show as thinking; the answer itself arrives as `content`. No one can
approve calls from here, so calls that need approval are refused as in a headless run. Two fields
of Hearth's own in the request ask for deep work: `deep` and `budget` (with the `openai` package:
`extra_body={"deep": True}`).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from hearth.apps.web.state import WebState
from hearth.core.errors import HearthError
from hearth.core.events import Finished, ModelReply, Status, ToolResult
from hearth.core.protocols import Delta

MODEL_ID = "hearth"


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: str | list[dict[str, Any]] | None = None


class CompletionRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    model: str = MODEL_ID
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    deep: bool = False  # Hearth's own: deep work (a todo tree and a token budget)
    budget: int | None = Field(default=None, gt=0)  # tokens (default for deep work: 200000)


def openai_router(state: WebState) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["openai"])

    @router.get("/models")
    async def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [{"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "hearth"}],
        }

    @router.post("/chat/completions", response_model=None)
    async def completions(body: CompletionRequest) -> dict[str, Any] | StreamingResponse:
        task, earlier = _task(body.messages)
        if body.stream:
            include_usage = bool((body.stream_options or {}).get("include_usage"))
            return StreamingResponse(
                _stream(state, body, task, earlier, include_usage), media_type="text/event-stream"
            )
        session_id, finished = await state.hub.chat(
            None, task, deep=body.deep, budget=body.budget, earlier=earlier
        )
        usage = state.rt.store.usage(session_id=session_id)
        return {
            "id": f"chatcmpl-{session_id}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": MODEL_ID,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": _answer(finished)},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "total_tokens": usage.prompt_tokens + usage.completion_tokens,
            },
            "hearth": {"session": session_id, "status": finished.status.value, "reason": finished.reason},
        }

    return router


def _text(content: str | list[dict[str, Any]] | None) -> str:
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if part.get("type") == "text")
    return content or ""


def _task(messages: list[ChatMessage]) -> tuple[str, str]:
    """The task (the last user message) and the conversation before it, as a transcript."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if not users:
        raise HearthError("There is no user message to work on.", "Send at least one message with role user.")
    last = users[-1]
    task = _text(messages[last].content).strip()
    if not task:
        raise HearthError("The last user message is empty.", "Say what you want done.")
    earlier = [m for m in messages[:last] if m.role in ("user", "assistant") and _text(m.content).strip()]
    return task, "\n\n".join(f"{m.role}: {_text(m.content).strip()}" for m in earlier)


def _answer(finished: Finished) -> str:
    if finished.final_text:
        return finished.final_text
    if finished.status is Status.DONE:
        return "Done."
    return f"Stopped ({finished.status.value}): {finished.reason}"


async def _stream(
    state: WebState, body: CompletionRequest, task: str, earlier: str, include_usage: bool
) -> AsyncIterator[str]:
    with state.hub.watch(None, answers=False) as (live, sub):
        chunk_id = f"chatcmpl-{live.id}"
        yield _chunk(chunk_id, {"role": "assistant", "content": ""})
        state.hub.start(live.id, task, deep=body.deep, budget=body.budget, earlier=earlier)
        finished: Finished | None = None
        async for sid, update in sub.until_done(live):
            progress = _progress(update)
            if progress and sid != live.id:  # a sub-agent's progress, said as such
                progress = f"[sub-agent {sid[-6:]}] {progress.lstrip()}" if progress.strip() else ""
            if progress:
                yield _chunk(chunk_id, {"reasoning_content": progress})
            if isinstance(update, Finished) and sid == live.id:
                finished = update
        answer = _answer(finished) if finished else "Stopped."
        yield _chunk(chunk_id, {"content": answer})
        yield _chunk(chunk_id, {}, finish="stop")
        if include_usage:
            u = state.rt.store.usage(session_id=live.id)
            usage = {
                "prompt_tokens": u.prompt_tokens,
                "completion_tokens": u.completion_tokens,
                "total_tokens": u.prompt_tokens + u.completion_tokens,
            }
            yield _chunk(chunk_id, None, usage=usage)
        yield "data: [DONE]\n\n"


def _progress(update: object) -> str:
    if isinstance(update, Delta) and update.kind in ("text", "thinking"):
        return update.text
    if isinstance(update, ModelReply):
        calls = "".join(
            f"\n→ {c.name} {json.dumps(c.arguments, ensure_ascii=False)[:200]}" for c in update.tool_calls
        )
        return calls + "\n" if calls else "\n"
    if isinstance(update, ToolResult):
        return f"{'✓' if update.ok else '✗'} {update.name} ({update.duration_ms:.0f} ms)\n"
    return ""


def _chunk(
    chunk_id: str,
    delta: dict[str, Any] | None,
    finish: str | None = None,
    usage: dict[str, int] | None = None,
) -> str:
    payload: dict[str, Any] = {
        "id": chunk_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": MODEL_ID,
        "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        payload["usage"] = usage
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"
