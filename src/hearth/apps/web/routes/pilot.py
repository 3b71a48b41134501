"""Pilot over HTTP: the pipeline's controls and a Pilot chat (whose only tools are those controls)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from hearth.apps.web.schemas import MessageText
from hearth.apps.web.state import State, WebState
from hearth.pipeline import control
from hearth.pipeline.pilot import PILOT_TOOLS, open_pilot
from hearth.pipeline.queue.store import PipelineStore
from hearth.pipeline.report import plan_report, summary
from hearth.pipeline.runner import open_pipeline_store

router = APIRouter(prefix="/pilot", tags=["pilot"])


class PlanIn(BaseModel):
    name: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1, max_length=control.MAX_PLAN_CHARS)


class PlanRef(BaseModel):
    plan: str | None = Field(None, max_length=300)


class PilotChatIn(BaseModel):
    message: MessageText
    session: str | None = Field(None, max_length=100, description="Continue this Pilot session")


class ControlOut(BaseModel):
    message: str


class PilotChatOut(BaseModel):
    session: str
    text: str
    status: str
    reason: str


@contextmanager
def _store(state: WebState) -> Iterator[PipelineStore]:
    store = open_pipeline_store(state.rt.workspace)
    try:
        yield store
    finally:
        store.close()


@router.get("/tools")
async def tools() -> list[str]:
    """The tools Pilot's model is given (nothing else: no shell, no files)."""
    return list(PILOT_TOOLS)


@router.get("/status")
async def status(state: State) -> dict[str, Any]:
    with _store(state) as store:
        return control.status_data(store)


@router.post("/plans")
async def create_plan(body: PlanIn, state: State) -> ControlOut:
    with _store(state) as store:
        return ControlOut(message=control.create_plan(store, state.rt.workspace, body.name, body.text))


@router.post("/retry")
async def retry(body: PlanRef, state: State) -> ControlOut:
    with _store(state) as store:
        return ControlOut(message=control.retry(store, body.plan))


@router.post("/resume")
async def resume(body: PlanRef, state: State) -> ControlOut:
    with _store(state) as store:
        return ControlOut(message=control.resume(store, body.plan))


@router.post("/cancel")
async def cancel(body: PlanRef, state: State) -> ControlOut:
    with _store(state) as store:
        return ControlOut(message=control.cancel(store, body.plan))


@router.get("/report")
async def report(state: State, plan: str | None = None) -> dict[str, Any]:
    """One plan's quality report (`?plan=`), or the summary across every plan that ended."""
    with _store(state) as store:
        return plan_report(store, store.find_plan(plan)) if plan else summary(store)


@router.post("/chat")
async def chat(body: PilotChatIn, state: State) -> PilotChatOut:
    """Say something to Pilot; it answers using only the pipeline's controls."""
    with _store(state) as store:
        conv = open_pilot(state.rt, store, body.session)
        finished = await conv.send(body.message)
        return PilotChatOut(
            session=conv.id, text=finished.final_text, status=finished.status.value, reason=finished.reason
        )
