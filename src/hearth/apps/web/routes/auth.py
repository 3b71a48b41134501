"""Logging in (the PIN or the token, for a cookie) and out."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from hearth.apps.web.auth import COOKIE, LoginRefused
from hearth.apps.web.errors import Refused
from hearth.apps.web.schemas import Login, Ok
from hearth.apps.web.state import State

router = APIRouter(tags=["auth"])


@router.post("/login")
async def login(body: Login, response: Response, state: State) -> Ok:
    """The one route open without a login: a right PIN or token sets an HttpOnly cookie."""
    try:
        cookie = state.auth.login(pin=body.pin, token=body.token)
    except LoginRefused as exc:
        raise Refused(exc.status, str(exc)) from None
    response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict", path="/")
    return Ok()


@router.post("/logout")
async def logout(request: Request, response: Response, state: State) -> Ok:
    state.auth.logout(request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/")
    return Ok()
