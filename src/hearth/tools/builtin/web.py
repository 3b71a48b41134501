"""`web_fetch`: a page as readable Markdown, through the sandbox's egress policy.

Every connection, including each redirect's, goes to an address the policy
checked (`check(host, port)` resolves the name itself and refuses loopback,
private, link-local and metadata addresses); the socket is opened to that very
address, so a second DNS answer cannot swap it. Body size, time and redirects
are capped; binary content is refused.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx
from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.builtin.render import Renderer

Check = Callable[[str, int], Awaitable[str]]  # (host, port) -> the checked address, or raises
MAX_BODY = 5 << 20
MAX_REDIRECTS = 5
TIMEOUT = 30.0
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/xhtml", "application/ld+json")


class _CheckedBackend(httpcore.AsyncNetworkBackend):
    """Opens TCP connections only to addresses the policy returned for the name asked."""

    def __init__(self, check: Check) -> None:
        self._check = check
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            address = await self._check(host, port)
        except Exception as exc:
            raise _Refused(str(exc)) from None
        return await self._inner.connect_tcp(address, port, timeout=timeout, socket_options=socket_options)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise _Refused("Unix sockets are not reachable")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _Refused(Exception):
    pass


def _client(check: Check) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(retries=0)
    transport._pool = httpcore.AsyncConnectionPool(  # httpx has no public hook for this
        ssl_context=httpx.create_ssl_context(), network_backend=_CheckedBackend(check)
    )
    return httpx.AsyncClient(
        transport=transport,
        trust_env=False,
        follow_redirects=False,
        timeout=httpx.Timeout(15.0),
        headers={"User-Agent": "Hearth/0.1 (web_fetch)", "Accept": "text/html,text/*;q=0.9,*/*;q=0.5"},
    )


class WebFetchInput(ToolInput):
    """Fetch a web page (http/https) as Markdown. Long pages are cut."""

    url: str
    selector: str | None = Field(None, description="Only this CSS selector's content")
    max_chars: int = Field(20000, ge=200, le=200000)


class WebFetchRenderInput(WebFetchInput):
    """Fetch a web page (http/https) as Markdown. Long pages are cut."""

    render: bool = Field(False, description="Run the page's JavaScript in a browser first")


async def fetch(url: str, check: Check, *, max_body: int = MAX_BODY) -> tuple[str, str, bytes]:
    """(final URL, content type, body) after checked redirects; ToolError with the reason."""
    async with _client(check) as client:
        for _ in range(MAX_REDIRECTS + 1):
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ToolError(f"{url!r} is not an http:// or https:// URL.")
            try:
                async with client.stream("GET", url) as response:
                    if response.is_redirect and "location" in response.headers:
                        url = urljoin(url, response.headers["location"])
                        continue
                    if response.status_code >= 400:
                        raise ToolError(f"{url} answered HTTP {response.status_code}.")
                    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                    if kind and not kind.startswith(TEXT_TYPES):
                        raise ToolError(f"{url} is {kind}, not a text page; web_fetch reads only text.")
                    declared = response.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > max_body:
                        raise ToolError(f"{url} is {int(declared)} bytes, over the {max_body}-byte limit.")
                    body = bytearray()
                    async for chunk in response.aiter_raw():
                        body += chunk
                        if len(body) > max_body:
                            raise ToolError(f"{url} is over the {max_body}-byte limit; not read further.")
                    return url, kind, bytes(body)
            except _Refused as exc:
                raise ToolError(f"Refused {url}: {exc}.") from None
            except httpx.HTTPError as exc:
                cause = exc.__cause__ or exc.__context__
                if isinstance(cause, _Refused):
                    raise ToolError(f"Refused {url}: {cause}.") from None
                raise ToolError(f"Could not fetch {url}: {type(exc).__name__} {exc}".rstrip()) from None
        raise ToolError(f"More than {MAX_REDIRECTS} redirects; stopped at {url}.")


def to_markdown(html: str, selector: str | None) -> str:
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "noscript", "template", "svg", "iframe", "head"]):
        tag.decompose()
    if selector:
        picked = soup.select(selector)
        if not picked:
            raise ToolError(f"Nothing on the page matches the selector {selector!r}.")
        parts = [MarkdownConverter(heading_style="ATX").convert_soup(p) for p in picked]
        text = "\n\n".join(parts)
    else:
        text = MarkdownConverter(heading_style="ATX").convert_soup(soup)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _decode(body: bytes, kind: str) -> str:
    if b"\x00" in body[:8192]:
        raise ToolError("The page is binary data, not text.")
    return body.decode("utf-8", errors="replace")


def web_tools(check: Check, renderer: Renderer | None = None) -> list[Tool]:
    """`check`: the egress policy (the sandbox's network settings) every connection passes.
    `renderer`: offers `render` (a browser whose every request passes the same policy)."""

    async def web_fetch(args: WebFetchInput, ctx: RunContext) -> str:
        url = args.url.strip()
        try:
            if renderer is not None and getattr(args, "render", False):
                final, html = await asyncio.wait_for(renderer.render(url, TIMEOUT), timeout=TIMEOUT + 15)
                kind, body = "text/html", html.encode("utf-8")
            else:
                final, kind, body = await asyncio.wait_for(fetch(url, check), timeout=TIMEOUT)
        except TimeoutError:
            raise ToolError(f"{args.url} took longer than {TIMEOUT:g}s; not read.") from None
        text = _decode(body, kind)
        if kind in ("text/html", "application/xhtml+xml") or (not kind and "<html" in text[:2000].lower()):
            text = to_markdown(text, args.selector)
        elif args.selector:
            raise ToolError(f"selector works only on HTML; {final} is {kind or 'untyped'}.")
        if len(text) > args.max_chars:
            text = text[: args.max_chars] + f"\n[cut at {args.max_chars} of {len(text)} characters]"
        return f"URL: {final}\n\n{text or '(empty page)'}"

    model = WebFetchRenderInput if renderer is not None else WebFetchInput
    return [Tool("web_fetch", model, web_fetch, read_only=True, aliases=("fetch", "webfetch"))]
