"""The web server's FastAPI app: UI, HTTP API, WebSockets and the OpenAI-compatible endpoint."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from hearth.apps.mcp_server.server import http_handler
from hearth.apps.web import sockets
from hearth.apps.web.auth import AuthMiddleware, WebAuth
from hearth.apps.web.errors import error_handlers
from hearth.apps.web.openai_api import openai_router
from hearth.apps.web.routes import api_router
from hearth.apps.web.scheduling import start_scheduler, stop_scheduler
from hearth.apps.web.state import WebState
from hearth.apps.web.trust import trust_router
from hearth.core.protocols import Model
from hearth.runtime.config import Settings
from hearth.runtime.hub import Hub
from hearth.runtime.session import Runtime, open_runtime

STATIC = Path(__file__).parent / "static"
# Swagger UI 5 (OpenAPI 3.1, which FastAPI writes) as the fastapi-offline package ships it.
SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"


def create_app(
    settings: Settings, auth: WebAuth, *, model: Model | None = None, runtime: Runtime | None = None
) -> FastAPI:
    """The app; it opens the runtime when it starts, unless given one already open (it closes it)."""
    state = WebState(settings, auth)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.runtime = runtime or await open_runtime(settings, model=model)
        state.hub_ = Hub(state.runtime)
        background = await start_scheduler(state)
        try:
            async with http_handler(state.runtime) as handler:
                state.mcp_handler = handler
                yield
        finally:
            if state.bridges_ is not None:
                await state.bridges_.stop()
            await stop_scheduler(state, background)
            await state.hub.aclose()
            await state.rt.aclose()

    app = FastAPI(
        title="Hearth",
        description="A local-first autonomous agent. Every route needs the login token or cookie.",
        lifespan=lifespan,
        exception_handlers=error_handlers(),
        # FastAPI's own pages load from a CDN with inline script, which the CSP refuses: /docs is
        # served below from the installed fastapi-offline's copy of Swagger UI instead.
        docs_url=None,
        redoc_url=None,
    )
    app.state.web = state
    app.include_router(api_router())
    app.include_router(sockets.router)
    app.include_router(openai_router(state))
    app.include_router(trust_router(state))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs/assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html")

    # `hearth mcp-server` over Streamable HTTP; the AuthMiddleware below guards it like every route.
    # POST only: it runs stateless, so there is no session to DELETE and no stream to GET (one
    # would stay open with nothing to carry).
    app.router.routes.append(Route("/mcp", McpEndpoint(state), methods=["POST"]))

    @app.post("/hooks/{name}", include_in_schema=False)
    async def platform_hook(name: str, request: Request) -> Response:
        """Twilio's or Discord's webhook while that bridge is active (web/bridges.py); each request
        is checked by the platform's signature there, not by the web login (auth.SIGNED_PATHS)."""
        webhook = state.bridges_.answering(name) if state.bridges_ is not None else None
        if webhook is None:
            return Response("No such bridge is running here.", status_code=404)
        return await webhook.handle(request)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.add_middleware(AuthMiddleware, auth=auth)
    return app


class McpEndpoint:
    """ASGI: hands `/mcp` requests to the MCP server the lifespan started."""

    def __init__(self, state: WebState) -> None:
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler = self.state.mcp_handler
        assert handler is not None, "the MCP endpoint starts with the server"
        await handler(scope, receive, send)
