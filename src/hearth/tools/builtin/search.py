"""`web_search`: results (title, URL, snippet) from the provider the user configured.

Providers: a SearXNG instance (its JSON API), Brave Search or Tavily (API key),
or DuckDuckGo's HTML endpoint. The endpoint is the user's setting, so it is
reached directly (a SearXNG on the local network is fine); redirects are not
followed, answers are capped in size and time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput

DEFAULT_URLS = {
    "brave": "https://api.search.brave.com/res/v1/web/search",
    "tavily": "https://api.tavily.com/search",
    "duckduckgo": "https://html.duckduckgo.com/html/",
}
MAX_ANSWER = 2 << 20
TIMEOUT = 20.0


@dataclass(frozen=True)
class Hit:
    title: str
    url: str
    snippet: str


@dataclass(frozen=True)
class SearchProvider:
    kind: str  # searxng | brave | tavily | duckduckgo
    url: str = ""  # SearXNG's base URL; for the others, overrides the public endpoint
    key: str = ""

    @property
    def endpoint(self) -> str:
        if self.kind == "searxng":
            return self.url.rstrip("/") + "/search"
        return self.url or DEFAULT_URLS[self.kind]

    def problem(self) -> str | None:
        """Why this provider cannot be used as configured, or None."""
        if self.kind == "searxng" and not self.url:
            return "search_provider = searxng needs search_url (the instance's address)"
        if self.kind in ("brave", "tavily") and not self.key:
            return f"search_provider = {self.kind} needs search_api_key"
        if urlsplit(self.endpoint).scheme not in ("http", "https"):
            return f"the search endpoint {self.endpoint!r} is not an http(s) URL"
        return None

    async def reachable(self, timeout: float = 3.0) -> bool:
        """Any HTTP answer from the endpoint's host counts (no search is spent on it)."""
        parts = urlsplit(self.endpoint)
        try:
            async with _client(timeout) as client:
                await client.get(f"{parts.scheme}://{parts.netloc}/")
        except httpx.HTTPError:
            return False
        return True

    async def search(self, query: str, n: int) -> list[Hit]:
        async with _client(TIMEOUT) as client:
            if self.kind == "searxng":
                data = _json(await _send(client, "GET", self.endpoint, params={"q": query, "format": "json"}))
                items = data.get("results") or []
                return [_hit(i.get("title"), i.get("url"), i.get("content")) for i in items[:n]]
            if self.kind == "brave":
                headers = {"X-Subscription-Token": self.key, "Accept": "application/json"}
                answer = await _send(
                    client, "GET", self.endpoint, params={"q": query, "count": str(n)}, headers=headers
                )
                items = (_json(answer).get("web") or {}).get("results") or []
                return [_hit(i.get("title"), i.get("url"), i.get("description")) for i in items[:n]]
            if self.kind == "tavily":
                headers = {"Authorization": f"Bearer {self.key}"}
                answer = await _send(
                    client, "POST", self.endpoint, json={"query": query, "max_results": n}, headers=headers
                )
                items = _json(answer).get("results") or []
                return [_hit(i.get("title"), i.get("url"), i.get("content")) for i in items[:n]]
            answer = await _send(client, "POST", self.endpoint, data={"q": query})
            return _duckduckgo(answer.decode("utf-8", "replace"))[:n]


def _client(timeout: float) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        trust_env=False,
        follow_redirects=False,
        timeout=httpx.Timeout(timeout),
        headers={"User-Agent": "Mozilla/5.0 (compatible; Hearth/0.1)"},
    )


async def _send(client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> bytes:
    body = bytearray()
    try:
        async with client.stream(method, url, **kwargs) as response:
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > MAX_ANSWER:
                    raise ToolError("The search provider's answer is too large; try a narrower query.")
    except httpx.HTTPError as exc:
        raise ToolError(
            f"The search provider could not be reached: {type(exc).__name__} {exc}".rstrip()
        ) from None
    if response.status_code in (401, 403):
        raise ToolError(
            f"The search provider refused the request (HTTP {response.status_code}); check search_api_key."
        )
    if response.status_code == 429:
        raise ToolError(
            "The search provider's rate limit was hit (HTTP 429); wait a little and search again."
        )
    if response.status_code >= 300:
        raise ToolError(f"The search provider answered HTTP {response.status_code}.")
    return bytes(body)


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except ValueError:
        raise ToolError(
            "The search provider did not answer with JSON (is its JSON format enabled?)."
        ) from None
    if not isinstance(data, dict):
        raise ToolError("The search provider's answer has an unexpected shape.")
    return data


def _hit(title: Any, url: Any, snippet: Any) -> Hit:
    return Hit(
        " ".join(str(title or "").split()), str(url or "").strip(), " ".join(str(snippet or "").split())
    )


def _duckduckgo(html: str) -> list[Hit]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    hits = []
    for result in soup.select(".result"):
        link = result.select_one("a.result__a")
        if link is None:
            continue
        href = str(link.get("href") or "")
        target = parse_qs(urlsplit(href).query).get("uddg")  # DuckDuckGo's redirect links
        snippet = result.select_one(".result__snippet")
        hits.append(
            _hit(
                link.get_text(" ", strip=True),
                target[0] if target else href,
                snippet.get_text(" ") if snippet else "",
            )
        )
    return hits


class WebSearchInput(ToolInput):
    """Search the web: title, URL and snippet of each result (read pages with web_fetch)."""

    query: str
    n: int = Field(8, ge=1, le=20, description="Results")


def search_tools(provider: SearchProvider) -> list[Tool]:
    async def web_search(args: WebSearchInput, ctx: RunContext) -> str:
        if not args.query.strip():
            raise ToolError("The query is empty.")
        hits = await provider.search(args.query.strip(), args.n)
        if not hits:
            return f"No results for {args.query!r}."
        return "\n\n".join(
            f"{i}. {h.title or '(untitled)'}\n   {h.url}" + (f"\n   {h.snippet[:300]}" if h.snippet else "")
            for i, h in enumerate(hits, 1)
        )

    return [Tool("web_search", WebSearchInput, web_search, read_only=True, aliases=("search", "websearch"))]
