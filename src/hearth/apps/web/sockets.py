"""WebSockets: `/ws/{session}` to follow and drive one session, `/ws/activity` across all of them.

On connect a session socket gets `hello` with the whole history (encoded as the live updates
are, so a reload shows exactly what was there) and any question still waiting for an answer;
then live updates, each with its `session` (a sub-agent's, while it works for this session, are
sent too, marked with the sub-agent's own session). Client messages (`message` with `plan`,
`deep` and `budget`, `set_mode`, `stop`, `approve`, `plan_decision`, `ping`, `clear`) are checked
by the HTTP API's models (schemas.py). `clear` starts a new, empty session and answers `cleared`
with its id (`new_session`); the client connects to that session's socket (the old session stays listed).
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from hearth.apps.web.schemas import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    Approve,
    Clear,
    DecidePlan,
    Ping,
    SendMessage,
    SetMode,
    Stop,
)
from hearth.apps.web.state import State
from hearth.core.errors import HearthError
from hearth.core.events import ErrorRaised
from hearth.history.wire import Encoder, in_session
from hearth.runtime.hub import Hub, LiveSession, Subscription

TOO_SLOW = 1013

router = APIRouter()


@router.websocket("/ws/activity")
async def activity(ws: WebSocket, state: State) -> None:
    """Every session's updates as they happen, each with its `session`."""
    await ws.accept()
    with state.hub.watch_all() as sub:
        encoders: defaultdict[str, Encoder] = defaultdict(Encoder)
        sender = asyncio.create_task(_pump(ws, sub, encoders.__getitem__))
        try:
            while True:
                await ws.receive_text()  # only to notice the client leaving
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()


@router.websocket("/ws/{session_id}")
async def session(ws: WebSocket, session_id: str, state: State) -> None:
    await ws.accept()
    try:
        live = state.hub.session(session_id)
    except HearthError as exc:
        await ws.send_json(_error(exc))
        await ws.close(1008)
        return
    with state.hub.watch(live.id) as (live, sub):
        encoder = Encoder()
        # No await between subscribing and reading the history: nothing is lost or doubled.
        replay = [m for e in state.rt.store.events(live.id) for m in encoder.encode(e)]
        questions = [m for q in live.open_questions() for m in encoder.encode(q)]
        await ws.send_json(
            {
                "type": "hello",
                "session": live.id,
                "running": live.running,
                "mode": live.mode,
                "history": replay,
            }
        )
        for message in questions:
            await ws.send_json(in_session(message, live.id))
        # a sub-agent's live events (marked with its session) are encoded as its own session's
        children: defaultdict[str, Encoder] = defaultdict(Encoder)
        sender = asyncio.create_task(_pump(ws, sub, lambda sid: encoder if sid == live.id else children[sid]))
        try:
            while True:
                raw = await ws.receive_text()
                reply = _handle(state.hub, live, raw)
                if reply is not None:
                    await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()


async def _pump(ws: WebSocket, sub: Subscription, encoder_for: Callable[[str], Encoder]) -> None:
    try:
        while True:
            session_id, update = await sub.get()
            if sub.overflowed:
                await ws.close(TOO_SLOW, "too far behind; reconnect to get the history")
                return
            for message in encoder_for(session_id).encode(update):
                await ws.send_text(json.dumps(in_session(message, session_id), ensure_ascii=False))
    except (WebSocketDisconnect, RuntimeError):
        return


def _handle(hub: Hub, live: LiveSession, raw: str) -> dict[str, Any] | None:
    """Act on one client message; an answer to send back, if any."""
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return _error(HearthError('Send JSON objects like {"type": "message", "content": "..."}.'))
    try:
        msg = CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        return _error(_invalid(data, exc))
    try:
        if isinstance(msg, SendMessage):
            if msg.mode:
                hub.set_mode(live.id, msg.mode)
            hub.start(live.id, msg.message, plan=msg.plan, deep=msg.deep, budget=msg.budget)
        elif isinstance(msg, SetMode):
            hub.set_mode(live.id, msg.mode)
        elif isinstance(msg, Stop):
            return {"type": "stopping", "stopped": hub.stop(live.id)}
        elif isinstance(msg, Approve):
            hub.approve(live.id, msg.id, msg.decision, msg.message)
        elif isinstance(msg, DecidePlan):
            hub.decide_plan(live.id, msg.id, msg.decision, msg.steps)
        elif isinstance(msg, Ping):
            return {"type": "pong"}
        elif isinstance(msg, Clear):
            if live.running:
                raise HearthError("This session is running a task.", "Stop it first, then clear.")
            fresh = hub.session(None)
            return {"type": "cleared", "session": live.id, "new_session": fresh.id}
    except HearthError as exc:
        return _error(exc)
    return None


def _invalid(data: dict[str, Any], exc: ValidationError) -> HearthError:
    kinds = ", ".join(CLIENT_TYPES)
    problems = []
    hint = "The WebSocket's messages are described in the README."
    for error in exc.errors():
        if error["type"] == "string_too_long":
            hint = "Put long material in a file in the workspace and point to it."
        if error["type"] == "union_tag_not_found":
            return HearthError("A message needs a `type`.", f"Use one of {kinds}.")
        if error["type"] == "union_tag_invalid":
            return HearthError(f"Unknown message type {data.get('type')!r}.", f"Use one of {kinds}.")
        where = ".".join(str(part) for part in error["loc"][1:]) or "message"
        problems.append(f"`{where}`: {error['msg']}")
    return HearthError(f"Invalid {data.get('type')!r} message: {'; '.join(problems)}.", hint)


def _error(exc: HearthError) -> dict[str, Any]:
    return Encoder().encode(ErrorRaised(message=exc.message, hint=exc.hint))[0]
