"""A real `hearth web` server (uvicorn on 127.0.0.1) in a thread, with the scripted model server behind."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from websockets.sync.client import ClientConnection, connect

from hearth.apps.web.app import create_app
from hearth.apps.web.auth import WebAuth
from hearth.runtime.config import load_settings
from hearth.testing.server import ScriptedServer

TOKEN = "test-token-7f3a9c"


@dataclass
class Web:
    url: str
    auth: WebAuth
    model: ScriptedServer
    workspace: Path
    app: FastAPI

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")

    def client(self, *, token: str | None = TOKEN, **kw: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # plain HTTP on 127.0.0.1: no certificates to load (40 ms a client, thousands of clients)
        kw.setdefault("verify", False)
        return httpx.Client(base_url=self.url, headers=headers, timeout=30, **kw)

    def ws(
        self, path: str, *, token: str | None = TOKEN, cookie: str | None = None, **kw: Any
    ) -> ClientConnection:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if cookie:
            headers["Cookie"] = f"hearth_auth={cookie}"
        # max_queue=None: the client keeps reading what a test does not ask for. With a bounded
        # queue it stops reading when the queue is full, never sees the server's answer to its
        # close, and each such test waited out the ten-second close timeout.
        kw.setdefault("max_queue", None)
        return connect(f"ws://{self.host}{path}", additional_headers=headers, open_timeout=10, **kw)


def receive_until(ws: ClientConnection, kind: str, timeout: float = 20) -> list[dict[str, Any]]:
    """Messages up to and including the first of type `kind`."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind!r} within {timeout}s; got {[m['type'] for m in seen]}")
        message = json.loads(ws.recv(timeout=left))
        seen.append(message)
        if message["type"] == kind:
            return seen


@contextmanager
def running_web(
    workspace: Path, home: Path, model: ScriptedServer, monkeypatch: Any, **settings: Any
) -> Iterator[Web]:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    flags = {"workspace": workspace, "llm_url": model.url, **settings}
    loaded = load_settings(flags, environ={}, cwd=workspace, user_file=home / "none.toml")
    auth = WebAuth.create(TOKEN, loopback_only=True)
    app = create_app(loaded.settings, auth)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield Web(f"http://127.0.0.1:{port}", auth, model, workspace, app)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
