"""`hearth web`: serve the UI and API with uvicorn; print where, and how to log in."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import sys

from hearth.apps.web.auth import LOOPBACK, WebAuth
from hearth.core import environment
from hearth.core.text import shown_url
from hearth.runtime.config import Settings, user_data_path

TOKEN_FILE = "web-token"


def login_token() -> tuple[str, str]:
    """The API token: HEARTH_WEB_TOKEN, else the one kept (mode 0600) in the user's data folder."""
    from_env = environment.web_token()
    if from_env:
        return from_env, environment.WEB_TOKEN
    path = user_data_path() / TOKEN_FILE
    if path.exists():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token, str(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token, str(path)


def lan_addresses() -> list[str]:
    """This machine's addresses other devices may reach it at (no packet is sent)."""
    found: list[str] = []
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                address = s.getsockname()[0]
        except OSError:
            continue
        if address not in found and not address.startswith("127."):
            found.append(address)
    return found


def serve(settings: Settings, host: str, port: int) -> None:
    asyncio.run(_serve(settings, host, port))


async def _serve(settings: Settings, host: str, port: int) -> None:
    import uvicorn

    from hearth.apps.web.app import create_app
    from hearth.runtime.session import open_runtime

    token, token_source = login_token()
    loopback = host in LOOPBACK
    auth = WebAuth.create(token, loopback_only=loopback)
    runtime = await open_runtime(settings)  # errors (no server, no workspace) surface here, plainly
    app = create_app(settings, auth, runtime=runtime)
    config = uvicorn.Config(  # proxy_headers off: X-Forwarded-For would let anyone pick their address
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=4 * 2**20,
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if loopback else host
    out = sys.stdout
    out.write(f"Hearth web UI for {settings.workspace}\n")
    out.write(f"  open      http://{shown}:{port}/\n")
    if not loopback:
        addresses = lan_addresses()
        for address in addresses:
            out.write(f"  network   http://{address}:{port}/  (anyone on your network can reach this)\n")
        if not addresses:
            out.write(f"  network   listening on {host}:{port}; no LAN address found on this machine\n")
    out.write(f"  PIN       {auth.pin}  (enter it on the page to log in)\n")
    out.write(f"  API token in {token_source}; send it as Authorization: Bearer\n")
    out.write(
        f"  sandbox   {runtime.sandbox.describe()} · model {runtime.model.name} @ {shown_url(runtime.server_url)}\n"
    )
    if runtime.sandbox.warning:
        out.write(f"  warning   {runtime.sandbox.warning}\n")
    scheduling = "on (unless another process schedules here)" if settings.web.scheduler else "off"
    out.write(f"  scheduler {scheduling}\n")
    out.flush()
    await server.serve()
