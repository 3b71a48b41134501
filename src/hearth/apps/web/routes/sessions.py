"""Sessions: list, create, history, export, tracked work, delete, stop, mode, the roles' models,
and answers to questions."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel

from hearth.apps.web.schemas import ApprovalIn, ModeIn, ModelIn, Ok, PlanIn, RoleOut, WireMessage
from hearth.apps.web.state import State
from hearth.core.events import latest_work
from hearth.core.work import PlanStep, TaskState, Todo
from hearth.history.export import export_session
from hearth.history.wire import encode_all, work_json
from hearth.runtime.roles import Role

router = APIRouter(prefix="/sessions", tags=["sessions"])


class SessionOut(BaseModel):
    id: str
    title: str
    status: str  # running, needs_you (an approval or plan waits for an answer), done, waiting, ...
    updated: str
    created: str
    wake_at: str | None
    model: str
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    parent: str | None = None  # the session that delegated this one (a sub-agent's)


class NewSession(BaseModel):
    id: str


class HistoryOut(BaseModel):
    id: str
    running: bool
    events: list[WireMessage]


class WorkOut(BaseModel):
    """The todos (agent_computer's `tasks`), the plan, the task state, and all of it as text."""

    tasks: list[Todo]
    plan: list[PlanStep]
    task: TaskState
    summary: str


class Stopped(BaseModel):
    stopped: bool


class ModeOut(BaseModel):
    mode: str


@router.get("")
async def sessions(state: State, limit: int = Query(100, ge=1, le=1000)) -> list[SessionOut]:
    """The workspace's sessions, newest first: those with something said in them (a session
    opened and left empty is not listed), a session waiting for an answer as `needs_you`."""
    out = []
    for info in state.rt.store.list_sessions(limit=limit, started=True):
        live = state.hub.sessions.get(info.id)
        status = info.status
        if live and live.running:
            status = "needs_you" if live.questions else "running"
        out.append(
            SessionOut(
                id=info.id,
                title=info.title,
                status=status,
                updated=info.updated,
                created=info.created,
                wake_at=info.wake_at,
                model=info.model,
                prompt_tokens=info.prompt_tokens,
                cached_tokens=info.cached_tokens,
                completion_tokens=info.completion_tokens,
                parent=info.parent,
            )
        )
    return out


@router.post("")
async def new_session(state: State) -> NewSession:
    return NewSession(id=state.hub.session(None).id)


@router.get("/{session_id}/history")
async def session_history(session_id: str, state: State) -> HistoryOut:
    """Every event of the session as the WebSocket sends it, for a reload."""
    state.rt.store.get(session_id)
    live = state.hub.sessions.get(session_id)
    events = encode_all(state.rt.store.events(session_id))
    return HistoryOut(
        id=session_id,
        running=bool(live and live.running),
        events=[WireMessage.model_validate(m) for m in events],
    )


@router.get(
    "/{session_id}/export",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
)
async def export(session_id: str, state: State, format: Literal["md", "json"] = "md") -> Response:
    """The session as Markdown or JSON (as `hearth sessions export`), linked to the session that
    delegated it and to its sub-agents' sessions."""
    state.rt.store.get(session_id)
    text = export_session(state.rt.store, session_id, format)
    media = "application/json" if format == "json" else "text/plain; charset=utf-8"  # shown, never run
    return Response(text, media_type=media)


@router.get("/{session_id}/tasks")
async def session_tasks(session_id: str, state: State) -> WorkOut:
    state.rt.store.get(session_id)
    return WorkOut.model_validate(work_json(latest_work(state.rt.store.events(session_id))))


@router.delete("/{session_id}")
async def delete_session(session_id: str, state: State) -> Ok:
    state.hub.delete(session_id)
    return Ok()


@router.post("/{session_id}/stop")
async def stop(session_id: str, state: State) -> Stopped:
    return Stopped(stopped=state.hub.stop(session_id))


@router.post("/{session_id}/mode")
async def mode(session_id: str, body: ModeIn, state: State) -> ModeOut:
    state.hub.set_mode(session_id, body.mode)
    return ModeOut(mode=body.mode)


@router.get("/{session_id}/models")
async def session_models(session_id: str, state: State) -> list[RoleOut]:
    """Each role and the model it uses in this session now."""
    state.rt.store.get(session_id)
    return [_role_out(r) for r in state.hub.roles(session_id)]


@router.post("/{session_id}/model")
async def choose_model(session_id: str, body: ModelIn, state: State) -> RoleOut:
    """Use this model for the role (`main`: the session's own) from the next request on; recorded
    in the session as a `model_chosen` event, so it holds after a restart."""
    state.rt.store.get(session_id)
    return _role_out(state.hub.set_model(session_id, body.role, body.model))


def _role_out(role: Role) -> RoleOut:
    return RoleOut(
        role=role.name,
        model=role.model,
        server=role.server,
        native_tools=role.native_tools,
        json_schema=role.json_schema,
        vision=role.vision,
        thinking=role.thinking,
    )


@router.post("/{session_id}/approvals/{question_id}")
async def approve(session_id: str, question_id: str, body: ApprovalIn, state: State) -> Ok:
    state.hub.approve(session_id, question_id, body.decision, body.message)
    return Ok()


@router.post("/{session_id}/plans/{question_id}")
async def decide_plan(session_id: str, question_id: str, body: PlanIn, state: State) -> Ok:
    state.hub.decide_plan(session_id, question_id, body.decision, body.steps)
    return Ok()
