"""WebSockets: `/ws/{session}` to follow and drive one session, `/ws/activity` across all of them.

On connect a session socket gets `hello` with the whole history (replayed through the same
translation as live updates, so a reload shows exactly what was there) and any question still
waiting for an answer; then live updates. Client messages: `message` (with `plan`, `deep`,
`budget`), `set_mode`,
`stop`, `approve`, `plan_decision`, `ping`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hearth.apps.web.state import WebState
from hearth.apps.web.wire import Translator
from hearth.core.errors import HearthError
from hearth.runtime.hub import Hub, LiveSession, Subscription

TOO_SLOW = 1013
MAX_MESSAGE = 200_000  # as the HTTP chat route


def socket_router(state: WebState) -> APIRouter:
    router = APIRouter()

    @router.websocket("/ws/activity")
    async def activity(ws: WebSocket) -> None:
        await ws.accept()
        with state.hub.watch_all() as sub:
            translator = Translator()
            sender = asyncio.create_task(_pump(ws, sub, translator))
            try:
                while True:
                    await ws.receive_text()  # only to notice the client leaving
            except WebSocketDisconnect:
                pass
            finally:
                sender.cancel()

    @router.websocket("/ws/{session_id}")
    async def session(ws: WebSocket, session_id: str) -> None:
        await ws.accept()
        try:
            live = state.hub.session(session_id)
        except HearthError as exc:
            await ws.send_json({"type": "error", "message": exc.message, "hint": exc.hint})
            await ws.close(1008)
            return
        with state.hub.watch(live.id) as (live, sub):
            translator = Translator()
            # No await between subscribing and reading the history: nothing is lost or doubled.
            replay = [m for e in state.rt.store.events(live.id) for m in translator.messages(e)]
            questions = [m for q in live.open_questions() for m in translator.messages(q)]
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
                await ws.send_json(message)
            sender = asyncio.create_task(_pump(ws, sub, translator))
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

    return router


async def _pump(ws: WebSocket, sub: Subscription, translator: Translator) -> None:
    try:
        while True:
            session_id, update = await sub.get()
            if sub.overflowed:
                await ws.close(TOO_SLOW, "too far behind; reconnect to get the history")
                return
            for message in translator.messages(update):
                message["session"] = session_id
                await ws.send_text(json.dumps(message, ensure_ascii=False))
    except (WebSocketDisconnect, RuntimeError):
        return


def _handle(hub: Hub, live: LiveSession, raw: str) -> dict[str, Any] | None:
    """Act on one client message; an answer to send back, if any."""
    try:
        msg = json.loads(raw)
        if not isinstance(msg, dict):
            raise ValueError("not an object")
    except ValueError:
        return {"type": "error", "message": 'Send JSON objects like {"type": "message", "content": "..."}.'}
    kind = msg.get("type")
    try:
        if kind == "message":
            content = msg.get("content")
            if not isinstance(content, str):
                raise HearthError("A message needs text in `content`.")
            if len(content) > MAX_MESSAGE:
                raise HearthError(
                    f"The message is {len(content)} characters; the limit is {MAX_MESSAGE}.",
                    "Put long material in a file in the workspace and point to it.",
                )
            budget = msg.get("budget")
            if budget is not None and (not isinstance(budget, int) or budget <= 0):
                raise HearthError("`budget` must be a positive number of tokens.")
            hub.start(live.id, content, plan=bool(msg.get("plan")), deep=bool(msg.get("deep")), budget=budget)
        elif kind == "set_mode":
            hub.set_mode(live.id, str(msg.get("mode")))
        elif kind == "stop":
            return {"type": "stopping", "stopped": hub.stop(live.id)}
        elif kind == "approve":
            decision = msg.get("decision")
            if decision not in ("allow", "session", "deny"):
                raise HearthError("`decision` must be allow, session or deny.")
            hub.approve(live.id, str(msg.get("id")), decision, str(msg.get("message") or ""))
        elif kind == "plan_decision":
            decision = msg.get("decision")
            if decision not in ("approve", "reject"):
                raise HearthError("`decision` must be approve or reject.")
            steps = msg.get("steps") or []
            hub.decide_plan(live.id, str(msg.get("id")), decision, [str(s) for s in steps])
        elif kind == "ping":
            return {"type": "pong"}
        else:
            raise HearthError(
                f"Unknown message type {kind!r}.",
                "Use message, set_mode, stop, approve, plan_decision or ping.",
            )
    except HearthError as exc:
        return {"type": "error", "message": exc.message, "hint": exc.hint}
    return None
