"""The HTTP API under /api, one router per subject; `api_router()` puts them together."""

from __future__ import annotations

from fastapi import APIRouter

from hearth.apps.web.routes import auth, chat, files, memory, models, sessions, status, usage


def api_router() -> APIRouter:
    router = APIRouter(prefix="/api")
    for part in (auth, status, chat, sessions, usage, models, files, memory):
        router.include_router(part.router)
    return router
