"""The HTTP API under /api: chat, sessions, usage, activity, status, models, tools, files."""

from __future__ import annotations

import asyncio
import json
import mimetypes
import os
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from hearth.apps.web.auth import COOKIE, LoginRefused
from hearth.apps.web.state import WebState
from hearth.apps.web.wire import Translator, history, work_json
from hearth.core.errors import HearthError, NotFound
from hearth.core.events import Finished, ToolResult, latest_work
from hearth.runtime.hub import Busy

RANGES = {"today": None, "7d": 7, "30d": 30, "all": None}
MAX_FILE_BYTES = 2_000_000
MAX_LISTED = 2000
HIDDEN_DIRS = frozenset({".hearth", ".git"})


class Login(BaseModel):
    pin: str = ""
    token: str = ""


class ChatIn(BaseModel):
    message: str = Field(min_length=1, max_length=200_000)
    mode: Literal["auto", "normal", "manual", "plan"] | None = None
    plan: bool = False  # plan with read-only tools first, then carry the plan out
    deep: bool = False  # deep work: a todo tree and a token budget
    budget: int | None = Field(default=None, gt=0)  # tokens (default for deep work: 200000)


class ModeIn(BaseModel):
    mode: Literal["auto", "normal", "manual", "plan"]


class ApprovalIn(BaseModel):
    decision: Literal["allow", "session", "deny"]
    message: str = ""


class PlanIn(BaseModel):
    decision: Literal["approve", "reject"]
    steps: list[str] = Field(default_factory=list)


class ModelSelect(BaseModel):
    model_id: str = Field(min_length=1, max_length=300)
    provider: str = ""  # accepted for agent_computer's clients; Hearth uses its configured server


def api_router(state: WebState) -> APIRouter:
    router = APIRouter(prefix="/api")

    @router.post("/login", tags=["auth"])
    async def login(body: Login, response: Response) -> dict[str, bool]:
        try:
            cookie = state.auth.login(pin=body.pin, token=body.token)
        except LoginRefused as exc:
            raise _Refused(exc.status, str(exc)) from None
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict", path="/")
        return {"ok": True}

    @router.post("/logout", tags=["auth"])
    async def logout(request: Request, response: Response) -> dict[str, bool]:
        state.auth.logout(request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE, path="/")
        return {"ok": True}

    @router.get("/status", tags=["status"])
    async def status() -> dict[str, Any]:
        rt = state.rt
        running = [s.id for s in state.hub.sessions.values() if s.running]
        return {
            "workspace": str(rt.workspace),
            "model": rt.model.name,
            "server": rt.server_url,
            "context_window": rt.profile.context_window,
            "context_source": rt.context_source,
            "tool_mode": rt.profile.tool_mode.value,
            "sandbox": rt.sandbox.describe(),
            "sandbox_warning": rt.sandbox.warning,
            "permission_mode": rt.settings.permission_mode.value,
            "mcp_servers": [],
            "running_sessions": running,
            "sessions_in_memory": len(state.hub.sessions),
            "uptime_s": round(time.monotonic() - state.started, 1),
        }

    @router.get("/tools", tags=["status"])
    async def tools() -> list[dict[str, Any]]:
        return [
            {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.parameters,
                "read_only": bool(getattr(state.rt.toolset.get(spec.name), "read_only", False)),
                "source": "built-in",
            }
            for spec in state.rt.toolset.specs()
        ]

    # -- chat -----------------------------------------------------------------------

    @router.post("/chat/{session_id}", tags=["chat"])
    async def chat(session_id: str, body: ChatIn) -> dict[str, Any]:
        if body.mode:
            state.hub.set_mode(session_id, body.mode)
        sid, finished = await state.hub.chat(
            session_id, body.message, plan=body.plan, deep=body.deep, budget=body.budget
        )
        return _finished(sid, finished, state)

    @router.post("/chat/{session_id}/stream", tags=["chat"])
    async def chat_stream(session_id: str, body: ChatIn) -> StreamingResponse:
        """The task's progress as server-sent events (the WebSocket's messages), ending with `done`."""
        if body.mode:
            state.hub.set_mode(session_id, body.mode)
        return StreamingResponse(_stream(state, session_id, body), media_type="text/event-stream")

    # -- sessions -------------------------------------------------------------------

    @router.get("/sessions", tags=["sessions"])
    async def sessions(limit: int = Query(100, ge=1, le=1000)) -> list[dict[str, Any]]:
        out = []
        for info in state.rt.store.list_sessions(limit=limit):
            live = state.hub.sessions.get(info.id)
            out.append(
                {
                    "id": info.id,
                    "title": info.title,
                    "status": "running" if live and live.running else info.status,
                    "updated": info.updated,
                    "created": info.created,
                    "wake_at": info.wake_at,
                    "model": info.model,
                    "prompt_tokens": info.prompt_tokens,
                    "cached_tokens": info.cached_tokens,
                    "completion_tokens": info.completion_tokens,
                }
            )
        return out

    @router.post("/sessions", tags=["sessions"])
    async def new_session() -> dict[str, str]:
        return {"id": state.hub.session(None).id}

    @router.get("/sessions/{session_id}/history", tags=["sessions"])
    async def session_history(session_id: str) -> dict[str, Any]:
        state.rt.store.get(session_id)
        live = state.hub.sessions.get(session_id)
        return {
            "id": session_id,
            "running": bool(live and live.running),
            "events": history(state.rt.store.events(session_id)),
        }

    @router.get("/sessions/{session_id}/tasks", tags=["sessions"])
    async def session_tasks(session_id: str) -> dict[str, Any]:
        state.rt.store.get(session_id)
        return work_json(latest_work(state.rt.store.events(session_id)))

    @router.delete("/sessions/{session_id}", tags=["sessions"])
    async def delete_session(session_id: str) -> dict[str, bool]:
        state.hub.delete(session_id)
        return {"ok": True}

    @router.post("/sessions/{session_id}/stop", tags=["sessions"])
    async def stop(session_id: str) -> dict[str, bool]:
        return {"stopped": state.hub.stop(session_id)}

    @router.post("/sessions/{session_id}/mode", tags=["sessions"])
    async def mode(session_id: str, body: ModeIn) -> dict[str, str]:
        state.hub.set_mode(session_id, body.mode)
        return {"mode": body.mode}

    @router.post("/sessions/{session_id}/approvals/{question_id}", tags=["sessions"])
    async def approve(session_id: str, question_id: str, body: ApprovalIn) -> dict[str, bool]:
        state.hub.approve(session_id, question_id, body.decision, body.message)
        return {"ok": True}

    @router.post("/sessions/{session_id}/plans/{question_id}", tags=["sessions"])
    async def decide_plan(session_id: str, question_id: str, body: PlanIn) -> dict[str, bool]:
        state.hub.decide_plan(session_id, question_id, body.decision, body.steps)
        return {"ok": True}

    # -- usage and activity -----------------------------------------------------------

    @router.get("/usage", tags=["usage"])
    async def usage(range: Literal["today", "7d", "30d", "all"] = "today") -> dict[str, Any]:
        since = _since(range)
        totals = state.rt.store.usage(since=since)
        days = state.rt.store.usage_by_day(since=since)
        return {
            "range": range,
            "prompt_tokens": totals.prompt_tokens,
            "cached_tokens": totals.cached_tokens,
            "completion_tokens": totals.completion_tokens,
            "requests": totals.requests,
            "days": [
                {
                    "day": day,
                    "prompt_tokens": t.prompt_tokens,
                    "cached_tokens": t.cached_tokens,
                    "completion_tokens": t.completion_tokens,
                    "requests": t.requests,
                }
                for day, t in days
            ],
        }

    @router.get("/activity", tags=["usage"])
    async def activity(limit: int = Query(50, ge=1, le=1000)) -> list[dict[str, Any]]:
        out = []
        for sid, event in state.rt.store.recent(("tool_result", "permission", "finished"), limit):
            for message in Translator().messages(event):
                if isinstance(event, ToolResult):
                    message.pop("output", None)
                out.append({"session": sid, **message})
        return out

    # -- models ---------------------------------------------------------------------

    @router.get("/models", tags=["models"])
    async def models() -> dict[str, Any]:
        try:
            listed = await state.rt.list_models()
        except HearthError as exc:
            return {"current": state.rt.model.name, "models": [], "error": exc.message}
        return {"current": state.rt.model.name, "models": listed}

    @router.post("/models/select", tags=["models"])
    async def select_model(body: ModelSelect) -> dict[str, str]:
        state.rt.select_model(body.model_id)
        return {"current": state.rt.model.name}

    # -- workspace files ---------------------------------------------------------------

    @router.get("/files", tags=["files"])
    async def files() -> dict[str, Any]:
        return {"files": await asyncio.to_thread(_list_files, state)}

    @router.get("/files/raw", tags=["files"])
    async def file_raw(path: str, preview: bool = False) -> Response:
        """A workspace file's bytes, served inert: as text, or (`preview`, HTML only) as a page
        that runs in a unique opaque origin without scripts, never as a live page on this origin."""
        data = await asyncio.to_thread(_read_file, state, path)
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        text_like = kind.startswith("text/") or kind in ("application/json", "application/javascript")
        if preview and kind == "text/html":
            media = "text/html; charset=utf-8"
        elif text_like:
            media = "text/plain; charset=utf-8"
        else:
            media = kind
        return Response(
            data,
            media_type=media,
            headers={
                "content-security-policy": (
                    "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'"
                ),
                "x-frame-options": "SAMEORIGIN",
                "content-disposition": "inline",
            },
        )

    return router


class _Refused(HearthError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error_handlers() -> dict[Any, Any]:
    async def hearth_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HearthError)
        status = getattr(exc, "status", 400)
        if isinstance(exc, Busy):
            status = 409
        elif isinstance(exc, NotFound):
            status = 404
        return JSONResponse({"detail": exc.message, "hint": exc.hint}, status_code=status)

    return {HearthError: hearth_error}


async def _stream(state: WebState, session_id: str, body: ChatIn) -> AsyncIterator[str]:
    with state.hub.watch(session_id) as (live, sub):
        try:
            state.hub.start(live.id, body.message, plan=body.plan, deep=body.deep, budget=body.budget)
        except HearthError as exc:
            yield _sse({"type": "error", "message": exc.message, "hint": exc.hint})
            return
        translator = Translator()
        async for _, update in sub.until_done(live):
            for message in translator.messages(update):
                yield _sse(message)


def _sse(message: dict[str, Any]) -> str:
    return f"data: {json.dumps(message, ensure_ascii=False)}\n\n"


def _finished(session_id: str, finished: Finished, state: WebState) -> dict[str, Any]:
    u = state.rt.store.usage(session_id=session_id)
    return {
        "session": session_id,
        "text": finished.final_text,
        "status": finished.status.value,
        "reason": finished.reason,
        "wake_at": finished.wake_at.isoformat() if finished.wake_at else None,
        "model": state.rt.model.name,
        "usage": {
            "prompt_tokens": u.prompt_tokens,
            "cached_tokens": u.cached_tokens,
            "completion_tokens": u.completion_tokens,
        },
    }


def _since(range_name: str) -> datetime | None:
    now = datetime.now(UTC)
    if range_name == "today":
        return now.replace(hour=0, minute=0, second=0, microsecond=0)
    days = RANGES.get(range_name)
    return now - timedelta(days=days) if days else None


def _list_files(state: WebState) -> list[dict[str, Any]]:
    paths = state.paths
    root = paths.root
    out: list[dict[str, Any]] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if d not in (".git", ".hearth", "node_modules", "__pycache__", ".venv")
        )
        for name in sorted(names):
            full = os.path.join(folder, name)
            if paths.is_secret(Path(full)):
                continue
            try:
                size = os.path.getsize(full)
            except OSError:
                continue
            out.append({"path": os.path.relpath(full, root), "size": size})
            if len(out) >= MAX_LISTED:
                return out
    return out


def _read_file(state: WebState, path: str) -> bytes:
    paths = state.paths
    try:
        resolved = paths.resolve(path)
    except Exception as exc:  # outside the workspace, a link out of it, ...
        raise _Refused(403, f"Cannot show {path!r}: {exc}") from None
    if paths.is_secret(resolved):
        raise _Refused(403, f"{path} holds secrets; the web UI does not show it.")
    inside = resolved.relative_to(paths.root).parts
    if any(part in HIDDEN_DIRS for part in inside[:-1]):
        # Hearth's own store and checkpoints (copies of every file, .env included) and git internals
        raise _Refused(403, f"{path} is inside {'/'.join(inside[:1])}/, which the web UI does not show.")
    try:
        fd = paths.open(resolved, os.O_RDONLY)
    except FileNotFoundError:
        raise _Refused(404, f"No file {path} in the workspace.") from None
    except OSError as exc:
        raise _Refused(403, f"Cannot read {path}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(413, f"{path} is larger than {MAX_FILE_BYTES} bytes; open it on the machine itself.")
    return data
