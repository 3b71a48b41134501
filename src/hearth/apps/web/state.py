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
from hearth.runtime.config import Settings
from hearth.runtime.hub import Hub
from hearth.runtime.session import Runtime
from hearth.sandbox.paths import SafePaths


@dataclass
class WebState:
    settings: Settings
    auth: WebAuth
    runtime: Runtime | None = None
    hub_: Hub | None = None
    mcp_handler: ASGIApp | None = None  # `hearth mcp-server` over Streamable HTTP, at /mcp
    started: float = field(default_factory=time.monotonic)

    @property
    def rt(self) -> Runtime:
        assert self.runtime is not None, "the runtime starts with the server"
        return self.runtime

    @property
    def hub(self) -> Hub:
        assert self.hub_ is not None, "the hub starts with the server"
        return self.hub_

    @cached_property
    def paths(self) -> SafePaths:
        return SafePaths(self.rt.workspace)


def web_state(conn: HTTPConnection) -> WebState:
    """The server's state, for a route (HTTP or WebSocket) that declares `state: State`."""
    state = conn.app.state.web
    assert isinstance(state, WebState)
    return state


State = Annotated[WebState, Depends(web_state)]
