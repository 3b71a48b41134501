"""Wrong PINs slow their own address, never lock the owner out.

Against the real `hearth web` subprocess over HTTP, with clients on several loopback
source addresses (127.0.0.1, 127.0.0.2, ...), and forged X-Forwarded-For / X-Real-IP /
Forwarded headers, which must change nothing.
"""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

import forkserver
from hearth.apps.web.auth import FREE_FAILURES, PIN_FAILURES
from hearth.testing.processes import stop
from hearth.testing.server import ScriptedServer
from support import clean_env


@dataclass
class Server:
    url: str
    pin: str
    console: list[str] = field(default_factory=list)

    def client(self, address: str, **kw: object) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(base_url=self.url, transport=transport, timeout=30, **kw)  # type: ignore[arg-type]

    def wrong_pin(self) -> str:
        return "000000" if self.pin != "000000" else "111111"


@pytest.fixture
def web_server(workspace: Path, home: Path, server: ScriptedServer) -> Iterator[Server]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = forkserver.popen(
        ["web", "-w", str(workspace), "--port", str(port)],
        env=clean_env(home, HEARTH_LLM_URL=server.url),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    console: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            console.append(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        while not any(line.strip().startswith("sandbox") for line in console):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(console)
            time.sleep(0.05)
        pin = re.search(r"PIN\s+(\d{6})", "".join(console))
        assert pin
        # the banner is printed before the server listens: wait until it answers (slow on a loaded machine)
        while not _listening(port):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(console)
            time.sleep(0.05)
        yield Server(f"http://127.0.0.1:{port}", pin.group(1), console)
    finally:
        stop(proc, timeout=15)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _login(client: httpx.Client, pin: str, **headers: str) -> httpx.Response:
    return client.post("/api/login", json={"pin": pin}, headers=headers)


def test_a_guesser_on_another_address_never_keeps_the_owner_out(web_server: Server) -> None:
    with web_server.client("127.0.0.2") as guesser:
        codes = [_login(guesser, web_server.wrong_pin()).status_code for _ in range(30)]
        assert codes[:FREE_FAILURES] == [401] * FREE_FAILURES
        assert set(codes[FREE_FAILURES:]) == {429}, codes  # the guesser is slowed down
        assert _login(guesser, web_server.pin).status_code == 429  # even a right PIN waits there
    with web_server.client("127.0.0.1") as owner:
        ok = _login(owner, web_server.pin)
        assert ok.status_code == 200, ok.text
        assert owner.get("/api/sessions").status_code == 200


@pytest.mark.parametrize(
    "header", ["X-Forwarded-For", "X-Real-IP", "Forwarded", "True-Client-IP", "CF-Connecting-IP"]
)
def test_forwarded_headers_neither_free_a_guesser_nor_blame_the_owner(
    web_server: Server, header: str
) -> None:
    def forged(n: int, address: str) -> dict[str, str]:
        return {header: f"for={address}" if header == "Forwarded" else address} | {"X-Forwarded-For": address}

    # The guesser sits on 127.0.0.1, the address uvicorn would trust for such headers by default.
    with web_server.client("127.0.0.1") as guesser:
        codes = [
            _login(guesser, web_server.wrong_pin(), **forged(n, f"10.0.{n}.1")).status_code for n in range(12)
        ]
        assert set(codes[FREE_FAILURES:]) == {429}, codes  # a new "address" each time changed nothing
    with web_server.client("127.0.0.3") as blamer:  # says it is the owner's address
        for _ in range(10):
            _login(blamer, web_server.wrong_pin(), **forged(0, "127.0.0.2"))
    with web_server.client("127.0.0.2") as owner:
        assert _login(owner, web_server.pin).status_code == 200


def test_the_wait_doubles_and_the_token_still_logs_in(web_server: Server, home: Path) -> None:
    with web_server.client("127.0.0.2") as client:
        for _ in range(FREE_FAILURES):
            assert _login(client, web_server.wrong_pin()).status_code == 401
        first = _login(client, web_server.wrong_pin())
        assert first.status_code == 429 and "try again in 2 seconds" in first.json()["detail"]
        token = (home / ".local/share/hearth/web-token").read_text().strip()
        assert client.post("/api/login", json={"token": token}).status_code == 200
        time.sleep(2.2)
        assert _login(client, web_server.wrong_pin()).status_code == 401
        second = _login(client, web_server.wrong_pin())
        assert second.status_code == 429 and "try again in 4 seconds" in second.json()["detail"]


def test_many_wrong_pins_from_many_addresses_replace_the_pin(web_server: Server) -> None:
    sent = 0
    for host in range(10, 250):
        with web_server.client(f"127.0.0.{host}") as guesser:
            for _ in range(FREE_FAILURES):
                assert _login(guesser, web_server.wrong_pin()).status_code == 401
                sent += 1
        if sent >= PIN_FAILURES:
            break
    deadline = time.monotonic() + 5
    while not (found := re.search(r"New PIN (\d{6})", "".join(web_server.console))):
        assert time.monotonic() < deadline, "".join(web_server.console)
        time.sleep(0.05)
    new_pin = found.group(1)
    with web_server.client("127.0.0.1") as owner:
        if new_pin != web_server.pin:
            assert _login(owner, web_server.pin).status_code == 401  # the old PIN is gone
        assert _login(owner, new_pin).status_code == 200
