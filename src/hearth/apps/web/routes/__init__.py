"""The HTTP API under /api, one router per subject; `api_router()` puts them together."""

from __future__ import annotations

from fastapi import APIRouter

from hearth.apps.web.routes import (
    auth,
    bridges,
    chat,
    cron,
    files,
    memory,
    models,
    pilot,
    sessions,
    status,
    usage,
    voice,
)


def api_router() -> APIRouter:
    router = APIRouter(prefix="/api")
    for part in (auth, status, chat, sessions, usage, models, files, memory, voice, pilot, cron, bridges):
        router.include_router(part.router)
    return router
