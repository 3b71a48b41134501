"""Network by allow-list, through the checking proxy."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from hearth.core.protocols import ExecSpec
from hearth.sandbox.bwrap import BwrapBackend
from hearth.sandbox.limits import ResourceLimits
from hearth.sandbox.proxy import AllowlistProxy, ProxyPolicy, Refused
from hearth.sandbox.runner import SandboxRunner
from requirements import need


def resolver(table: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    async def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("no such host")
        return table[host]

    return resolve


PUBLIC = {
    "ok.test": ["93.184.216.34"],
    "api.ok.test": ["93.184.216.35"],
    "rebind.ok.test": ["127.0.0.1"],
    "meta.ok.test": ["169.254.169.254"],
    "lan.ok.test": ["10.0.0.7", "93.184.216.34"],
    "xn--k-fka.test": ["93.184.216.36"],
}


@pytest.mark.parametrize(
    ("host", "why"),
    [
        ("evil.test\x00.ok.test", "not a plain domain name"),
        ("ok.test.evil.test", "not in the network allow-list"),
        ("evil.test", "not in the network allow-list"),
        ("1.2.3.4", "is an IP address"),
        ("[::1]", "is an IP address"),
        ("xn--k-fka.test", "punycode"),
        ("ok_test.test", "not a plain domain name"),
        ("rebind.ok.test", "not a public address"),
        ("meta.ok.test", "not a public address"),
        ("lan.ok.test", "not a public address"),
        ("OK.TEST.", None),
        ("api.ok.test", None),
    ],
)
def test_allow_list_decisions(host: str, why: str | None) -> None:
    policy = ProxyPolicy(["ok.test", "*.ok.test"], resolver=resolver(PUBLIC))
    if why is None:
        assert asyncio.run(policy.check(host, 443)).startswith("93.184.216.")
    else:
        with pytest.raises(Refused, match=why):
            asyncio.run(policy.check(host, 443))


def test_a_wildcard_does_not_cover_the_bare_domain() -> None:
    policy = ProxyPolicy(["*.ok.test"], resolver=resolver(PUBLIC))
    with pytest.raises(Refused):
        asyncio.run(policy.check("ok.test", 443))


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"hello from the allowed site"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_sandboxed_command_reaches_only_allowed_sites_through_the_proxy(workspace: Path) -> None:
    need("bwrap")
    site = HTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    port = site.server_address[1]
    table = {"site.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]}
    fetch = (
        'python3 -c "import urllib.request, sys; '
        'print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())" {url} 2>&1 | tail -1'
    )

    async def scenario() -> tuple[str, str, str, list[str]]:
        folder = Path(tempfile.mkdtemp())
        policy = ProxyPolicy(["site.test"], resolver=resolver(table), allow_private=True)
        proxy = await AllowlistProxy(policy, folder / "proxy.sock").start()
        backend = BwrapBackend(workspace, ResourceLimits())
        backend.proxy_socket = proxy.socket_path
        runner = SandboxRunner(backend)
        try:
            ok = await runner.run(ExecSpec(fetch.format(url=f"http://site.test:{port}/"), workspace, 20))
            denied = await runner.run(ExecSpec(fetch.format(url=f"http://other.test:{port}/"), workspace, 20))
            direct = await runner.run(
                ExecSpec(
                    f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\" 2>&1 | tail -1",
                    workspace,
                    20,
                )
            )
            return ok.output, denied.output, direct.output, policy.log
        finally:
            await runner.close()
            await proxy.close()
            shutil.rmtree(folder, ignore_errors=True)

    try:
        ok, denied, direct, log = asyncio.run(scenario())
    finally:
        site.shutdown()
    assert ok.strip() == "hello from the allowed site"
    assert "403" in denied
    assert "refused" in direct.lower() or "unreachable" in direct.lower()  # no way around the proxy
    assert any(line.startswith("allowed http://site.test") for line in log)
    assert any("other.test is not in the network allow-list" in line for line in log)


def test_connect_tunnels_only_allowed_hosts_and_host_headers_must_match() -> None:
    site = HTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    port = site.server_address[1]

    async def ask(sock: Path, request: bytes, then: bytes = b"") -> bytes:
        reader, writer = await asyncio.open_unix_connection(str(sock))
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if then and head.startswith(b"HTTP/1.1 200"):
            writer.write(then)
            await writer.drain()
            head += await asyncio.wait_for(reader.read(), timeout=10)  # to EOF: the upstream closes
        writer.close()
        return head

    async def scenario() -> list[bytes]:
        folder = Path(tempfile.mkdtemp())
        policy = ProxyPolicy(
            ["site.test"], resolver=resolver({"site.test": ["127.0.0.1"]}), allow_private=True
        )
        proxy = await AllowlistProxy(policy, folder / "p.sock").start()
        assert proxy.socket_path is not None  # start() sets it
        try:
            return [
                await ask(
                    proxy.socket_path,
                    f"CONNECT site.test:{port} HTTP/1.1\r\n\r\n".encode(),
                    b"GET / HTTP/1.0\r\n\r\n",
                ),
                await ask(proxy.socket_path, b"CONNECT evil.test:443 HTTP/1.1\r\n\r\n"),
                await ask(
                    proxy.socket_path,
                    f"GET http://site.test:{port}/ HTTP/1.1\r\nHost: evil.test\r\n\r\n".encode(),
                ),
            ]
        finally:
            await proxy.close()
            shutil.rmtree(folder, ignore_errors=True)

    try:
        tunnel, refused, mismatch = asyncio.run(scenario())
    finally:
        site.shutdown()
    assert (
        tunnel.startswith(b"HTTP/1.1 200 Connection established") and b"hello from the allowed site" in tunnel
    )
    assert refused.startswith(b"HTTP/1.1 403")
    assert mismatch.startswith(b"HTTP/1.1 403")
