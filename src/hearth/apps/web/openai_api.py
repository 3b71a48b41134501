"""Hearth as an OpenAI-compatible model: `/v1/models` and `/v1/chat/completions`.

Any chat client (the `openai` package, Open WebUI) can send a task. Each request runs in a
new session: the last user message is the task, earlier turns come along as context. While
streaming, the model's text arrives as `content` as it is written (without Hearth's finish
markers); its thinking and the tool calls with their results arrive as `reasoning_content`, which
chat clients show as thinking. When the run fails (the model server is down, a bug), the answer
is an OpenAI-style error with a 5xx status, or an `error` event once a stream has begun. No one can
approve calls from here, so calls that need approval are refused as in a headless run. Two fields
of Hearth's own in the request ask for deep work: `deep` and `budget` (with the `openai` package:
`extra_body={"deep": True}`).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import ExitStack
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from hearth.apps.web.state import WebState
from hearth.core.errors import HearthError
from hearth.core.events import Finished, ModelReply, Status, ToolResult
from hearth.core.protocols import Delta
from hearth.runtime.hub import LiveSession, Update

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
    async def completions(body: CompletionRequest) -> dict[str, Any] | StreamingResponse | JSONResponse:
        task, earlier = _task(body.messages)
        if body.stream:
            return await _open_stream(state, body, task, earlier)
        session_id, finished = await state.hub.chat(
            None, task, deep=body.deep, budget=body.budget, earlier=earlier
        )
        if finished.status is Status.ERROR:
            return failure_response(finished)
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


def failure_response(finished: Finished) -> JSONResponse:
    """A failed run as OpenAI's clients expect a failure: a 5xx status and an error body."""
    error = _failure(finished)
    status = 500 if error["code"] == "internal_error" else 502
    return JSONResponse({"error": error}, status_code=status)


def openai_error(message: str, kind: str, code: str) -> dict[str, Any]:
    """OpenAI's error body, which its client libraries read into their exceptions."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _failure(finished: Finished) -> dict[str, Any]:
    internal = finished.reason.startswith("internal error")
    return openai_error(
        f"Hearth could not finish the task: {finished.reason}",
        "server_error",
        "internal_error" if internal else "model_error",
    )["error"]


async def _open_stream(
    state: WebState, body: CompletionRequest, task: str, earlier: str
) -> StreamingResponse | JSONResponse:
    """Start the run and wait for its first sign of life: a run that fails before it says
    anything (the model server is down) answers with an error status, not a stream."""
    stack = ExitStack()
    live, sub = stack.enter_context(state.hub.watch(None, answers=False))
    state.hub.start(live.id, task, deep=body.deep, budget=body.budget, earlier=earlier)
    updates = sub.until_done(live).__aiter__()
    early: list[tuple[str, Update]] = []
    try:
        async for sid, update in updates:
            early.append((sid, update))
            if isinstance(update, Finished) and sid == live.id:
                if update.status is Status.ERROR:
                    stack.close()
                    return failure_response(update)
                break
            if _progress(update):
                break
    except BaseException:
        stack.close()
        raise
    include_usage = bool((body.stream_options or {}).get("include_usage"))
    events = _stream(state, live, early, updates, include_usage)
    return StreamingResponse(_closing(events, stack), media_type="text/event-stream")


async def _closing(events: AsyncIterator[str], stack: ExitStack) -> AsyncIterator[str]:
    try:
        async for event in events:
            yield event
    finally:
        stack.close()


async def _replay(
    early: list[tuple[str, Update]], rest: AsyncIterator[tuple[str, Update]]
) -> AsyncIterator[tuple[str, Update]]:
    for item in early:
        yield item
    async for item in rest:
        yield item


async def _stream(
    state: WebState,
    live: LiveSession,
    early: list[tuple[str, Update]],
    updates: AsyncIterator[tuple[str, Update]],
    include_usage: bool,
) -> AsyncIterator[str]:
    chunk_id = f"chatcmpl-{live.id}"
    yield _chunk(chunk_id, {"role": "assistant", "content": ""})
    finished: Finished | None = None
    answer = MarkerFilter()
    said = ""
    async for sid, update in _replay(early, updates):
        if sid == live.id and isinstance(update, Delta) and update.kind == "text":
            piece = answer.feed(update.text)
            said += piece
            if piece:
                yield _chunk(chunk_id, {"content": piece})
            continue
        if sid == live.id and isinstance(update, ModelReply):
            piece = answer.end(calls=bool(update.tool_calls))  # what was held back: its text or calls
            said += piece
            if piece:
                yield _chunk(chunk_id, {"content": piece})
        progress = _progress(update, text=sid != live.id)
        if progress and sid != live.id:  # a sub-agent's progress, said as such
            progress = f"[sub-agent {sid[-6:]}] {progress.lstrip()}" if progress.strip() else ""
        if progress:
            yield _chunk(chunk_id, {"reasoning_content": progress})
        if isinstance(update, Finished) and sid == live.id:
            finished = update
    tail = answer.end()
    if tail:
        said += tail
        yield _chunk(chunk_id, {"content": tail})
    if finished is not None and finished.status is Status.ERROR:
        yield f"data: {json.dumps({'error': _failure(finished)}, ensure_ascii=False)}\n\n"
        yield "data: [DONE]\n\n"
        return
    if not said.strip():  # nothing streamed as text (the answer came another way): say it now
        yield _chunk(chunk_id, {"content": _answer(finished) if finished else "Stopped."})
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


_MARKER = "TASK_COMPLETE"


class MarkerFilter:
    """Streamed text without the TASK_COMPLETE marker: a piece that might be the start of the
    marker is held back until the next piece shows whether it is. Trailing white space waits for
    more text, so the answer does not end with the blank line that stood before the marker.

    From a code fence (or a `<tool_call>` tag) on, a reply's text waits for the reply's end: a
    model calling tools in text writes its calls so, and they are not part of the answer (they
    show in `reasoning_content` as calls); an answer's own code block is sent at its end."""

    def __init__(self) -> None:
        self.held = ""  # what may be the start of the marker
        self.gap = ""  # white space, said only once more text follows
        self.fenced = ""  # from a fence on: said at the reply's end, unless it held tool calls

    def feed(self, text: str) -> str:
        if self.fenced:
            self.fenced += text
            return ""
        text = (self.held + text).replace(_MARKER, "")
        fence = min((i for i in (text.find("```"), text.find("<tool_call>")) if i >= 0), default=-1)
        if fence >= 0:
            self.held, self.fenced = "", text[fence:]
            return self._said(text[:fence])
        keep = next((n for n in range(len(_MARKER) - 1, 0, -1) if text.endswith(_MARKER[:n])), 0)
        keep = max(keep, next((n for n in (2, 1) if text.endswith("`" * n)), 0))  # a fence may follow
        self.held = text[len(text) - keep :] if keep else ""
        return self._said(text[: len(text) - keep])

    def end(self, *, calls: bool = False) -> str:
        """A reply's end: what was held back was not the marker; what followed a fence is the
        answer's, unless the reply called tools."""
        held, fenced = self.held, self.fenced
        self.held = self.fenced = ""
        return self._said(held + ("" if calls else fenced.replace(_MARKER, "")))

    def _said(self, text: str) -> str:
        core = text.rstrip()
        if not core:
            self.gap += text
            return ""
        out, self.gap = self.gap + core, text[len(core) :]
        return out


def _progress(update: object, *, text: bool = True) -> str:
    """The agent's work as thinking: its thinking, tool calls and results (and its text, when
    that text is not streamed as the answer: a sub-agent's)."""
    if isinstance(update, Delta) and update.kind in (("text", "thinking") if text else ("thinking",)):
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
