"""What the web server's routes share: settings, login, and (once started) the runtime and hub."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp

from hearth.apps.web.auth import WebAuth
from hearth.apps.web.bridges import Bridges
from hearth.runtime.config import Settings
from hearth.runtime.hub import Hub
from hearth.runtime.session import Runtime
from hearth.sandbox.paths import SafePaths
from hearth.schedule.jobs import JobBook
from hearth.schedule.scheduler import Scheduler


@dataclass
class WebState:
    settings: Settings
    auth: WebAuth
    runtime: Runtime | None = None
    hub_: Hub | None = None
    mcp_handler: ASGIApp | None = None  # `hearth mcp-server` over Streamable HTTP, at /mcp
    started: float = field(default_factory=time.monotonic)
    voice: bool | None = None  # does the model server transcribe speech (None: not asked yet)
    scheduler: Scheduler | None = None  # None: turned off, or another process schedules here
    jobs_: JobBook | None = None
    scheduler_note: str = ""  # why there is no scheduler in this process
    bridges_: Bridges | None = None

    @property
    def rt(self) -> Runtime:
        assert self.runtime is not None, "the runtime starts with the server"
        return self.runtime

    @property
    def hub(self) -> Hub:
        assert self.hub_ is not None, "the hub starts with the server"
        return self.hub_

    @property
    def jobs(self) -> JobBook:
        assert self.jobs_ is not None, "the jobs open with the server"
        return self.jobs_

    @property
    def bridges(self) -> Bridges:
        if self.bridges_ is None:
            self.bridges_ = Bridges(self.settings, self.hub)
        return self.bridges_

    @cached_property
    def paths(self) -> SafePaths:
        return SafePaths(self.rt.workspace)


def web_state(conn: HTTPConnection) -> WebState:
    """The server's state, for a route (HTTP or WebSocket) that declares `state: State`."""
    state = conn.app.state.web
    assert isinstance(state, WebState)
    return state


State = Annotated[WebState, Depends(web_state)]
