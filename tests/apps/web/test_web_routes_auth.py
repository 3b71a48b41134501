"""Every route the app has refuses a request without the login: found by walking `app.routes`,
HTTP and WebSocket, over a real server. Only the login page's files and the login itself are
open, and they are shown to hold no data."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from websockets.exceptions import InvalidStatus

from hearth.apps.web import auth
from hearth.apps.web.app import STATIC
from hearth.runtime.session import open_store
from websupport import TOKEN, Web

# The whole list of what answers without a login; the middleware's own list must be this one.
PUBLIC_PATHS = {"/", "/favicon.ico", "/api/login"}
PUBLIC_MOUNTS = {"/static"}
MARKER = "private-marker-5d1e"  # in a session, so a public answer that leaks data would show it


def _routes(app: FastAPI) -> Iterator[tuple[BaseRoute, str, set[str]]]:
    """Every route the app answers, with its full path and methods (FastAPI 0.165 includes routers
    lazily: `app.routes` then holds the included routers, which this looks inside)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # older FastAPI: app.routes is already flat
        for route in app.routes:
            yield route, getattr(route, "path", ""), set(getattr(route, "methods", None) or ())
        return
    for context in iter_route_contexts(app.routes):
        yield context.original_route, context.path or "", set(context.methods or ())


def _concrete(path: str) -> str:
    """A route's path with each parameter filled in."""
    return re.sub(r"\{[^}]+\}", "x1", path)


def _refusals(web: Web, method: str, path: str) -> list[httpx.Response]:
    """The same request without credentials, with a wrong token, and with a made-up cookie."""
    with web.client(token=None) as anon:
        return [
            anon.request(method, path, json={}),
            anon.request(method, path, json={}, headers={"Authorization": "Bearer wrong-token"}),
            anon.request(method, path, json={}, params={"token": TOKEN}),  # never accepted in a URL
            anon.request(method, path, json={}, headers={"Cookie": "hearth_auth=made-up", "Origin": web.url}),
        ]


def test_the_open_list_is_explicit_and_minimal() -> None:
    assert set(auth.OPEN_PATHS) == PUBLIC_PATHS
    assert {p.rstrip("/") for p in auth.OPEN_PREFIXES} == PUBLIC_MOUNTS


def test_every_route_refuses_a_request_without_the_token(web: Web) -> None:
    store = open_store(web.workspace)
    sid = store.create(str(web.workspace), "scripted-model", session_id="secret-session")
    from hearth.core.events import UserMessage

    store.append(sid, UserMessage(text=MARKER))
    store.close()

    walked = {"http": 0, "websocket": 0, "mount": 0}
    for route, template, methods in _routes(web.app):
        if isinstance(route, APIRoute | Route):
            assert methods, template
            if template in PUBLIC_PATHS:
                continue
            path = _concrete(template)
            for method in sorted(methods):
                for refused in _refusals(web, method, path):
                    assert refused.status_code == 401, (method, template, refused.status_code)
                    if method != "HEAD":
                        openai_style = template.startswith("/v1/")  # OpenAI's error body there
                        assert set(refused.json()) == ({"error"} if openai_style else {"detail"})
                        assert MARKER not in refused.text
                with web.client() as api:  # the route is there: with the token it is not refused
                    allowed = api.request(method, path, json={})
                assert allowed.status_code != 401, (method, template)
                walked["http"] += 1
        elif isinstance(route, APIWebSocketRoute | WebSocketRoute):
            path = _concrete(template)
            for kw in ({"token": None}, {"token": "wrong-token"}, {"token": None, "cookie": "made-up"}):
                with pytest.raises(InvalidStatus) as closed:
                    web.ws(path, origin=web.url, **kw).close()
                assert closed.value.response.status_code == 401, (template, kw)
            with web.ws(path, origin=web.url) as ws:  # with the token it opens
                if "{" in template:
                    assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            walked["websocket"] += 1
        elif isinstance(route, Mount):
            walked["mount"] += 1
            if template in PUBLIC_MOUNTS:
                continue
            # any other mount (Swagger UI's files under /docs/assets) is behind the login
            assert isinstance(route.app, StaticFiles), f"{template} mounts something this test does not know"
            files = sorted(p.name for p in Path(str(route.app.directory)).iterdir() if p.is_file())
            assert files, template
            path = f"{template}/{files[0]}"
            for refused in _refusals(web, "GET", path):
                assert refused.status_code == 401, (template, refused.status_code)
                assert set(refused.json()) == {"detail"}
            with web.client() as api:
                assert api.get(path).status_code == 200, path
        else:
            raise AssertionError(f"a route of a kind this test does not know: {route!r}")
    assert walked["http"] >= 25 and walked["websocket"] == 2 and walked["mount"] == 2, walked


def test_the_open_routes_serve_no_data(web: Web) -> None:
    store = open_store(web.workspace)
    sid = store.create(str(web.workspace), "scripted-model", session_id="secret-session")
    from hearth.core.events import UserMessage

    store.append(sid, UserMessage(text=MARKER))
    store.close()
    with web.client(token=None) as anon:
        page = anon.get("/")
        assert page.status_code == 200 and page.content == (STATIC / "index.html").read_bytes()
        icon = anon.get("/favicon.ico")
        assert icon.status_code == 200 and icon.content == (STATIC / "favicon.svg").read_bytes()
        shipped = sorted(p for p in Path(STATIC).rglob("*") if p.is_file())
        assert shipped
        for file in shipped:  # the static mount serves the files shipped in the package, nothing else
            got = anon.get(f"/static/{file.relative_to(STATIC).as_posix()}")
            assert got.status_code == 200 and got.content == file.read_bytes(), file.name
        for probe in ("/static/../api/sessions", "/static/%2e%2e/api/sessions", "/static/nothing.js"):
            got = anon.get(probe)
            assert got.status_code in (401, 404) and MARKER not in got.text, probe
        for body in ({}, {"pin": "000000" if web.auth.pin != "000000" else "1"}, {"token": "wrong"}):
            login = anon.post("/api/login", json=body)
            assert login.status_code == 401 and set(login.json()) == {"detail", "hint"}
            assert MARKER not in login.text and "set-cookie" not in login.headers
        for response in (page, icon):
            assert MARKER not in response.text and "secret-session" not in response.text
