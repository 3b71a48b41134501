"""What the server runs with (`/api/status`) and which tools the agent has (`/api/tools`)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from hearth.apps.web.state import State
from hearth.core.text import shown_url
from hearth.runtime.config import Settings

router = APIRouter(tags=["status"])


class StatusOut(BaseModel):
    workspace: str
    model: str
    server: str
    context_window: int
    context_source: str
    tool_mode: str
    sandbox: str
    sandbox_backend: str
    sandbox_protects: str  # what the backend isolates, in words
    sandbox_warning: str | None
    network: str  # what sandboxed commands and web_fetch may reach
    permission_mode: str
    mcp_servers: list[str]
    running_sessions: list[str]
    sessions_in_memory: int
    uptime_s: float


class ToolOut(BaseModel):
    name: str
    description: str
    parameters: dict[str, Any]
    read_only: bool
    source: str


@router.get("/status")
async def status(state: State) -> StatusOut:
    rt = state.rt
    return StatusOut(
        workspace=str(rt.workspace),
        model=rt.model.name,
        server=shown_url(rt.server_url),
        context_window=rt.profile.context_window,
        context_source=rt.context_source,
        tool_mode=rt.profile.tool_mode.value,
        sandbox=rt.sandbox.describe(),
        sandbox_backend=rt.sandbox.runner.name,
        sandbox_protects=rt.sandbox.runner.backend.isolation.describe(),
        sandbox_warning=rt.sandbox.warning,
        network=_network(rt.settings),
        permission_mode=rt.settings.permissions.mode.value,
        mcp_servers=rt.mcp.lines() if rt.mcp else [],
        running_sessions=[s.id for s in state.hub.sessions.values() if s.running],
        sessions_in_memory=len(state.hub.sessions),
        uptime_s=round(time.monotonic() - state.started, 1),
    )


def _network(settings: Settings) -> str:
    if settings.sandbox.network:
        reach = "the whole network (public addresses)"
    elif settings.sandbox.network_allow:
        reach = "only " + ", ".join(settings.sandbox.network_allow)
    else:
        reach = "none"
    local = (
        f"; web_fetch also reaches {', '.join(settings.web.allow_local)}" if settings.web.allow_local else ""
    )
    return reach + local


@router.get("/tools")
async def tools(state: State) -> list[ToolOut]:
    return [
        ToolOut(
            name=spec.name,
            description=spec.description,
            parameters=spec.parameters,
            read_only=bool(getattr(state.rt.toolset.get(spec.name), "read_only", False)),
            source=f"mcp:{server}"
            if (server := getattr(state.rt.toolset.get(spec.name), "server", ""))
            else "built-in",
        )
        for spec in state.rt.toolset.specs()
    ]
