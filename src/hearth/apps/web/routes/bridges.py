"""The messaging panel: which bridge runs in this server, switch it, stop it, read its feed."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel

from hearth.apps.web.bridges import NAMES, WEBHOOKS, BridgeName
from hearth.apps.web.state import State

router = APIRouter(prefix="/bridges", tags=["bridges"])


class BridgeOut(BaseModel):
    name: str
    configured: bool  # its token and allow-list are set
    webhook: str | None  # the path its platform calls on this server (SMS, Discord), else None


class BridgesOut(BaseModel):
    active: str | None  # one bridge at a time
    since: datetime | None
    bridges: list[BridgeOut]
    log: list[str]  # the newest last; tokens scrubbed


def _out(state: State) -> BridgesOut:
    b = state.bridges
    return BridgesOut(
        active=b.active,
        since=b.since,
        bridges=[
            BridgeOut(name=n, configured=b.configured(n), webhook=f"/hooks/{n}" if n in WEBHOOKS else None)
            for n in NAMES
        ],
        log=list(b.lines),
    )


@router.get("")
async def bridges(state: State) -> BridgesOut:
    return _out(state)


@router.post("/stop")
async def stop(state: State) -> BridgesOut:
    await state.bridges.stop()
    return _out(state)


@router.post("/{name}/start")
async def start(name: BridgeName, state: State) -> BridgesOut:
    """Start this bridge; the one running before is stopped first."""
    await state.bridges.start(name)
    return _out(state)
