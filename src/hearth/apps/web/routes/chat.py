"""Sending a task to a session: blocking (`/api/chat/ID`) or as server-sent events (`.../stream`).

The stream's messages are the session's own; a sub-agent's, while it works for the session, come
too, each with the sub-agent's `session` (the session's own carry none)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from hearth.apps.web.schemas import ChatIn, WireMessage
from hearth.apps.web.state import State, WebState
from hearth.core.errors import HearthError
from hearth.core.events import ErrorRaised, Finished
from hearth.history.wire import Encoder, in_session

router = APIRouter(prefix="/chat", tags=["chat"])


class TokenCounts(BaseModel):
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int


class ChatOut(BaseModel):
    """How the task ended (agent_computer's reply to a blocking chat)."""

    session: str
    text: str
    status: str
    reason: str
    wake_at: str | None
    model: str
    usage: TokenCounts


@router.post("/{session_id}")
async def chat(session_id: str, body: ChatIn, state: State) -> ChatOut:
    """Run the task to its end and answer with its final text, status and token use."""
    if body.mode:
        state.hub.set_mode(session_id, body.mode)
    sid, finished = await state.hub.chat(
        session_id, body.message, plan=body.plan, deep=body.deep, budget=body.budget
    )
    return _finished(state, sid, finished)


@router.post(
    "/{session_id}/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {"schema": WireMessage.model_json_schema()}}}},
)
async def chat_stream(session_id: str, body: ChatIn, state: State) -> StreamingResponse:
    """The task's progress as server-sent events (the WebSocket's messages), ending with `done`."""
    if body.mode:
        state.hub.set_mode(session_id, body.mode)
    return StreamingResponse(_stream(state, session_id, body), media_type="text/event-stream")


async def _stream(state: WebState, session_id: str, body: ChatIn) -> AsyncIterator[str]:
    encoder = Encoder()
    with state.hub.watch(session_id) as (live, sub):
        try:
            state.hub.start(live.id, body.message, plan=body.plan, deep=body.deep, budget=body.budget)
        except HearthError as exc:
            yield _sse(encoder.encode(ErrorRaised(message=exc.message, hint=exc.hint))[0])
            return
        children: defaultdict[str, Encoder] = defaultdict(Encoder)
        async for sid, update in sub.until_done(live):
            if sid != live.id:  # a sub-agent working for this session: marked with its own session
                for message in children[sid].encode(update):
                    yield _sse(in_session(message, sid))
                continue
            for message in encoder.encode(update):
                yield _sse(message)


def _sse(message: dict[str, Any]) -> str:
    return f"data: {json.dumps(message, ensure_ascii=False)}\n\n"


def _finished(state: WebState, session_id: str, finished: Finished) -> ChatOut:
    u = state.rt.store.usage(session_id=session_id)
    return ChatOut(
        session=session_id,
        text=finished.final_text,
        status=finished.status.value,
        reason=finished.reason,
        wake_at=finished.wake_at.isoformat() if finished.wake_at else None,
        model=state.rt.model.name,
        usage=TokenCounts(
            prompt_tokens=u.prompt_tokens,
            cached_tokens=u.cached_tokens,
            completion_tokens=u.completion_tokens,
        ),
    )
