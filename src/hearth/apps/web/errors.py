"""How the API turns Hearth's errors into HTTP answers: `{"detail": ..., "hint": ...}` with a status."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from hearth.core.errors import HearthError, NotFound
from hearth.runtime.hub import Busy


class Refused(HearthError):
    """A request refused with a given HTTP status (403 for a secret file, 413 for a big one, ...)."""

    def __init__(self, status: int, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
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
