"""Network by allow-list: a host proxy that sandboxed commands reach through a Unix socket.

The sandbox has no network of its own (bwrap's empty network namespace). A
relay inside it listens on 127.0.0.1:3128 and forwards to this proxy's Unix
socket, bound into the sandbox. The proxy accepts `CONNECT host:port` and
plain `GET http://host/...` requests only for allowed domains (`example.com`
exactly, `*.example.com` for its subdomains), rejects IP literals, NUL bytes,
punycode and odd names, resolves the name itself, refuses loopback, private,
link-local and other non-public addresses, and connects to the address it
checked (no second lookup, so DNS rebinding cannot swap it).

`local` names origins the person runs on this machine or network (a dev server on
`http://127.0.0.1:8000`): exactly those host and port pairs pass, whatever their address.
Only `web_fetch` is given them (setting `web_allow_local`); the sandbox's proxy never is.

Domain fronting (TLS SNI naming another site behind an allowed one) and
broad allow-list entries stay open: this limits where a command connects,
not what it says there.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
Resolver = Callable[[str, int], Awaitable[list[str]]]


class Refused(Exception):
    pass


LOCAL_HINT = (
    "; to reach a server on this machine or network, the user can name its origin in the setting "
    'web_allow_local (e.g. web_allow_local = ["http://127.0.0.1:8000"])'
)


def local_origin(entry: str) -> tuple[str, int]:
    """(host, port) of an origin such as `http://127.0.0.1:8000` or `localhost:3000`; ValueError
    saying what is wrong otherwise."""
    text = entry.strip()
    parts = urlsplit(text if "://" in text else f"http://{text}")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or port == -1
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise ValueError(
            f"{entry!r} is not an origin: write scheme, host and port, e.g. http://127.0.0.1:8000"
        )
    return parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


@dataclass
class ProxyPolicy:
    allow: Sequence[str]
    resolver: Resolver = system_resolver
    allow_private: bool = False  # tests only: lets the proxy reach a server on loopback
    any_domain: bool = False  # `network = true`: every public domain (addresses still checked)
    local: Sequence[str] = ()  # origins reachable whatever their address (web_fetch only)
    log: list[str] = field(default_factory=list)

    def local_allowed(self, host: str, port: int) -> bool:
        return (host, port) in {local_origin(entry) for entry in self.local}

    def host_allowed(self, host: str) -> bool:
        for entry in self.allow:
            entry = entry.lower().rstrip(".")
            if entry.startswith("*."):
                if host.endswith(entry[1:]) and host != entry[2:]:
                    return True
            elif host == entry:
                return True
        return False

    async def check(self, host: str, port: int) -> str:
        """The address to connect to, or Refused with the reason."""
        if not 0 < port < 65536:
            raise Refused(f"bad port {port}")
        name = host.rstrip(".").lower()
        if self.local_allowed(name.strip("[]"), port):
            return await self._local_address(name.strip("[]"), port)
        with contextlib.suppress(ValueError):
            ipaddress.ip_address(name.strip("[]"))
            which = "allowed domain names" if self.allow and not self.any_domain else "domain names"
            raise Refused(f"{host!r} is an IP address; only {which} are reachable{self._hint()}")
        labels = name.split(".")
        if len(name) > 253 or len(labels) < 2 or not all(_LABEL.match(label) for label in labels):
            raise Refused(f"{host!r} is not a plain domain name{self._hint()}")
        if any(label.startswith("xn--") for label in labels) and not self.host_allowed(name):
            raise Refused(f"{host!r} is an internationalised (punycode) name that is not allowed")
        if not self.any_domain and not self.host_allowed(name):
            raise Refused(f"{name} is not in the network allow-list")
        try:
            addresses = await self.resolver(name, port)
        except OSError as exc:
            raise Refused(f"{name} does not resolve: {exc}") from None
        for address in addresses:
            ip = ipaddress.ip_address(address)
            if not ip.is_global and not self.allow_private:
                raise Refused(f"{name} resolves to {address}, which is not a public address{self._hint()}")
        if not addresses:
            raise Refused(f"{name} has no address")
        return addresses[0]

    def _hint(self) -> str:
        if not self.local:
            return LOCAL_HINT
        return f" (web_allow_local lets only {', '.join(self.local)} through)"

    async def _local_address(self, host: str, port: int) -> str:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_address(host))
        try:
            addresses = await self.resolver(host, port)
        except OSError as exc:
            raise Refused(f"{host} does not resolve: {exc}") from None
        if not addresses:
            raise Refused(f"{host} has no address")
        return addresses[0]


class Egress(Protocol):
    """What the proxy asks before each connection (a `ProxyPolicy`, or a test's stand-in)."""

    log: list[str]

    async def check(self, host: str, port: int) -> str: ...


class AllowlistProxy:
    """On a Unix socket (`start`, for the sandbox's relay) or on 127.0.0.1 (`start_tcp`, for the
    browser that renders `web_fetch` pages); the same checks either way."""

    def __init__(self, policy: Egress, socket_path: Path | None = None) -> None:
        self.policy = policy
        self.socket_path = socket_path
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> AllowlistProxy:
        assert self.socket_path is not None, "start() listens on socket_path"
        self._server = await asyncio.start_unix_server(self._handle, path=str(self.socket_path))
        self.socket_path.chmod(0o666)
        return self

    async def start_tcp(self) -> int:
        """Listen on 127.0.0.1 at a free port; returns the port."""
        self._server = await asyncio.start_server(self._handle, host="127.0.0.1", port=0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server:
            self._server.close()
            await self._server.wait_closed()
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
            await self._serve(head, reader, writer)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _serve(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            text = head.decode("ascii")
        except UnicodeDecodeError:
            return await _reply(writer, 400, "request is not ASCII")
        lines = text.split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3:
            return await _reply(writer, 400, "bad request line")
        method, target, _version = parts
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
        try:
            if method == "CONNECT":
                host, _, port_text = target.rpartition(":")
                address = await self.policy.check(host, int(port_text or 0))
                port = int(port_text)
            else:
                url = urlsplit(target)
                if url.scheme != "http" or not url.hostname:
                    raise Refused("only absolute http:// URLs and CONNECT are proxied")
                host_header = headers.get("host", "").split(":")[0].lower()
                if host_header and host_header != url.hostname.lower():
                    raise Refused(f"Host header {host_header!r} does not match {url.hostname!r}")
                port = url.port or 80
                address = await self.policy.check(url.hostname, port)
        except (Refused, ValueError) as exc:
            self.policy.log.append(f"refused {target}: {exc}")
            return await _reply(writer, 403, str(exc))
        try:
            up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(address, port), timeout=15)
        except (OSError, TimeoutError) as exc:
            return await _reply(writer, 502, f"cannot connect: {exc}")
        self.policy.log.append(f"allowed {target} -> {address}")
        if method == "CONNECT":
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
        else:
            up_writer.write(_one_request(lines))
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))


@dataclass
class _Logged:
    """The policy, with the decisions for one browser kept in a list of their own (for its errors)."""

    policy: Egress
    log: list[str] = field(default_factory=list)

    async def check(self, host: str, port: int) -> str:
        return await self.policy.check(host, port)


@contextlib.asynccontextmanager
async def loopback_proxy(policy: Egress) -> AsyncIterator[tuple[int, list[str]]]:
    """A proxy on 127.0.0.1 for one browser: (its port, the decisions it made)."""
    logged = _Logged(policy)
    proxy = AllowlistProxy(logged)
    port = await proxy.start_tcp()
    try:
        yield port, logged.log
    finally:
        await proxy.close()


_HOP_HEADERS = ("connection", "proxy-connection", "keep-alive")


def _one_request(lines: list[str]) -> bytes:
    """A plain HTTP request head as the origin server expects it: the path alone on the request line
    (`GET /x`, not `GET http://host/x`), and `Connection: close` (a client that kept the connection
    for a request to another host would otherwise have it sent to the address checked for this one)."""
    method, target, version = lines[0].split(" ")
    url = urlsplit(target)
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    kept = [ln for ln in lines[1:] if ln and ln.partition(":")[0].strip().lower() not in _HOP_HEADERS]
    return "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""]).encode("ascii")


async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            dst.close()


async def _reply(writer: asyncio.StreamWriter, status: int, reason: str) -> None:
    body = f"hearth network allow-list: {reason}\n".encode()
    writer.write(
        f"HTTP/1.1 {status} Refused\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(ConnectionError):
        await writer.drain()
