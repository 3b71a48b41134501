"""How the API turns Hearth's errors into HTTP answers: `{"detail": ..., "hint": ...}` with a status."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
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
        if request.url.path.startswith("/v1/"):  # OpenAI's clients read OpenAI's error body
            message = f"{exc.message} {exc.hint}".strip()
            kind = "invalid_request_error" if status < 500 else "server_error"
            error = {"message": message, "type": kind, "param": None, "code": None}
            return JSONResponse({"error": error}, status_code=status)
        return JSONResponse({"detail": exc.message, "hint": exc.hint}, status_code=status)

    async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        if not request.url.path.startswith("/v1/"):
            return await request_validation_exception_handler(request, exc)
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()
        )
        error = {"message": problems, "type": "invalid_request_error", "param": None, "code": None}
        return JSONResponse({"error": error}, status_code=400)

    return {HearthError: hearth_error, RequestValidationError: invalid_request}
