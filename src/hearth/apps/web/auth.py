"""Who may use the web server, and from which page.

Every route and WebSocket needs the login token (`Authorization: Bearer`, for API clients)
or the HttpOnly cookie a browser gets by logging in with the PIN or the token. Only the
login page's static files and `POST /api/login` are open, and the messaging platforms' webhooks
(`SIGNED_PATHS`: Twilio and Discord call them from outside, through the user's tunnel, with no
login), whose every request is checked by the platform's signature instead and which answer
only while their bridge is active. On top of that:

- the Host header must name this server when it listens on loopback (DNS rebinding);
- a WebSocket's Origin, when sent, must be this server's own; a browser always sends one,
  so a foreign page can never drive the agent even with the user's cookie;
- a request that changes state and is authenticated by cookie must carry this server's
  Origin (cross-site request forgery);
- wrong PINs slow down the address that sends them (a wait that doubles after each
  one), never another address, so a guesser cannot keep the owner out; the address is
  the connection's, never a header such as X-Forwarded-For. After many wrong PINs from
  everywhere together the PIN is replaced, and the new one printed where `hearth web` runs.

The token is compared in constant time and is never accepted in a URL.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import math
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "hearth_auth"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
OPEN_PATHS = ("/", "/favicon.ico", "/api/login")
OPEN_PREFIXES = ("/static/",)
SIGNED_PATHS = frozenset({"/hooks/sms", "/hooks/discord"})  # POST only, signature-checked (web/bridges.py)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FREE_FAILURES = 3  # wrong PINs an address may send before it has to wait
FIRST_WAIT = 2.0  # seconds, doubling with each further wrong PIN
LONGEST_WAIT = 900.0
FORGET_AFTER = 3600.0  # an address quiet this long starts afresh
MAX_ADDRESSES = 10_000
PIN_FAILURES = 50  # wrong PINs from all addresses together before the PIN is replaced

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class LoginRefused(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Guesses:
    """Wrong logins from one address: how many, and until when it must wait."""

    failures: int = 0
    wait_until: float = 0.0
    last: float = 0.0


def _new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def _announce(message: str) -> None:
    sys.stdout.write(message + "\n")
    sys.stdout.flush()


@dataclass
class WebAuth:
    token: str
    pin: str
    loopback_only: bool = True
    cookies: set[str] = field(default_factory=set)
    guesses: OrderedDict[str, _Guesses] = field(default_factory=OrderedDict)
    pin_failures: int = 0  # from all addresses since the PIN was made
    announce: Callable[[str], None] = _announce  # the server's console

    @classmethod
    def create(cls, token: str | None, *, loopback_only: bool) -> WebAuth:
        return cls(token=token or secrets.token_urlsafe(24), pin=_new_pin(), loopback_only=loopback_only)

    def login(self, pin: str = "", token: str = "", *, client: str = "") -> str:
        """A new cookie value for a right PIN or token sent from the address `client`.

        The token (long and random) is always checked. A PIN is not while its address must
        wait: that slows one guesser and never anyone else.
        """
        now = time.monotonic()
        if token and hmac.compare_digest(token.strip().encode(), self.token.encode()):
            return self._cookie()
        guesses = self._guesses(_address_key(client), now)
        if now < guesses.wait_until:
            raise LoginRefused(
                f"Too many wrong attempts from your address; try again in "
                f"{math.ceil(guesses.wait_until - now)} seconds (or log in with the API token).",
                status=429,
            )
        if pin and hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            guesses.failures, guesses.wait_until = 0, 0.0
            return self._cookie()
        guesses.failures += 1
        if guesses.failures >= FREE_FAILURES:
            wait = min(LONGEST_WAIT, FIRST_WAIT * 2 ** (guesses.failures - FREE_FAILURES))
            guesses.wait_until = now + wait
        if pin:
            self.pin_failures += 1
            if self.pin_failures >= PIN_FAILURES:
                self.pin, self.pin_failures = _new_pin(), 0
                self.announce(
                    f"Hearth web: {PIN_FAILURES} wrong PINs were tried, so the PIN changed. "
                    f"New PIN {self.pin}"
                )
        raise LoginRefused(
            "Wrong PIN or token. The PIN is printed where `hearth web` runs "
            "(a new one after many wrong attempts).",
            401,
        )

    def _cookie(self) -> str:
        cookie = secrets.token_urlsafe(32)
        self.cookies.add(cookie)
        return cookie

    def _guesses(self, key: str, now: float) -> _Guesses:
        while self.guesses:  # oldest first: forget the quiet, and keep the table bounded
            oldest = next(iter(self.guesses.values()))
            if now - oldest.last < FORGET_AFTER and len(self.guesses) < MAX_ADDRESSES:
                break
            self.guesses.popitem(last=False)
        guesses = self.guesses.pop(key, None) or _Guesses()
        guesses.last = now
        self.guesses[key] = guesses
        return guesses

    def logout(self, cookie: str | None) -> None:
        if cookie:
            self.cookies.discard(cookie)

    def identify(self, headers: dict[str, str]) -> str | None:
        """'bearer', 'cookie' or None."""
        bearer = headers.get("authorization", "")
        if bearer[:7].lower() == "bearer " and hmac.compare_digest(
            bearer[7:].strip().encode(), self.token.encode()
        ):
            return "bearer"
        cookie = _cookie(headers.get("cookie", ""), COOKIE)
        if cookie and any(hmac.compare_digest(cookie.encode(), c.encode()) for c in list(self.cookies)):
            return "cookie"
        return None


class AuthMiddleware:
    """Checks every HTTP request and WebSocket before the app sees it; adds security headers."""

    def __init__(self, app: ASGIApp, auth: WebAuth) -> None:
        self.app = app
        self.auth = auth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(scope, headers)
        if problem is not None:
            status, message = problem
            await _refuse(scope, receive, send, status, message)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                if scope["path"].startswith(("/api/", "/v1/")):
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _problem(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        if scope["type"] == "http" and scope["path"] in SIGNED_PATHS:
            # The platform's signature is the check (the Host is the tunnel's public name).
            return None if scope.get("method") == "POST" else (405, "Only POST.")
        host = headers.get("host", "")
        if self.auth.loopback_only and _hostname(host) not in LOOPBACK:
            return 421, "This server answers only to 127.0.0.1 or localhost."
        path = scope["path"]
        websocket = scope["type"] == "websocket"
        origin = headers.get("origin")
        own = origin is not None and _same_origin(origin, host)
        if websocket and origin is not None and not own:
            return 403, "WebSocket from a foreign origin refused."
        if not websocket and (path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)):
            return None
        how = self.auth.identify(headers)
        if how is None:
            return (
                401,
                "Log in first: open the web UI and enter the PIN, or send Authorization: Bearer TOKEN.",
            )
        if how == "cookie" and websocket and origin is None:
            return 403, "WebSocket without an Origin refused."
        unsafe = not websocket and scope.get("method", "GET") not in SAFE_METHODS
        if unsafe and how == "cookie" and not own:
            return 403, "Cross-site request refused: it must come from this server's own page."
        return None


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    payload: dict[str, object] = {"detail": message}
    if scope["path"].startswith("/v1/"):  # the OpenAI-compatible endpoint: OpenAI's error body
        code = "invalid_api_key" if status == 401 else "forbidden"
        payload = {
            "error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}
        }
    body = json.dumps(payload).encode()
    if scope["type"] == "websocket":
        # Refused before the handshake completes: the client sees an HTTP error.
        await receive()  # websocket.connect
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        await send(
            {
                "type": "websocket.http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _address_key(client: str) -> str:
    """Whom to slow down: the IPv4 address, or the IPv6 /64 (one host easily has a whole /64)."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _hostname(host: str) -> str:
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None
