"""`web_search` against a local fake SearXNG (and fake Brave, Tavily and DuckDuckGo endpoints)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest

from hearth.core.errors import ToolError
from hearth.runtime.config import Settings
from hearth.runtime.offer import usable_search
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.search import SearchProvider, WebSearchInput, search_tools

DDG = """<html><body>
<div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fpython.org%2F&rut=x">Python
 home</a><a class="result__snippet">The official   site.</a></div>
<div class="result"><a class="result__a" href="https://docs.python.org/">Docs</a></div>
</body></html>"""


class Fake(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str, dict[str, str], bytes]]] = []

    def _answer(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        self.seen.append(("GET", parts.path, dict(self.headers), b""))
        if parts.path == "/search" and query.get("format") == "json":
            results = [
                {
                    "title": f"Result {i} for {query['q']}",
                    "url": f"https://ex{i}.org/",
                    "content": f"snip {i}",
                }
                for i in range(12)
            ]
            self._answer(200, json.dumps({"query": query["q"], "results": results}).encode())
        elif parts.path == "/search":
            self._answer(403, b"format not allowed", "text/plain")
        elif parts.path == "/brave":
            if self.headers.get("X-Subscription-Token") != "k1":
                self._answer(401, b"{}")
                return
            items = [{"title": "B", "url": "https://b.org/", "description": "from brave"}]
            self._answer(200, json.dumps({"web": {"results": items}}).encode())
        elif parts.path == "/html":
            self._answer(200, b"<html>not json</html>", "text/html")
        else:
            self._answer(200, b"ok", "text/plain")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.seen.append(("POST", self.path, dict(self.headers), body))
        if self.path == "/tavily":
            asked = json.loads(body)
            items = [{"title": "T", "url": "https://t.org/", "content": f"about {asked['query']}"}]
            self._answer(200, json.dumps({"results": items}).encode())
        elif self.path == "/ddg":
            self._answer(200, DDG.encode(), "text/html")
        else:
            self._answer(404, b"")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def base() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
    Fake.seen = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def search(provider: SearchProvider, query: str, **extra: object) -> str:
    (tool,) = search_tools(provider)
    ctx = RunContext(paths=SafePaths(Path("/")))
    return asyncio.run(tool.run(WebSearchInput.model_validate({"query": query, **extra}), ctx))


def test_searxng_results_as_title_url_snippet(base: str) -> None:
    out = search(SearchProvider("searxng", base + "/"), "hearth agent", n=3)
    assert out.startswith("1. Result 0 for hearth agent\n   https://ex0.org/\n   snip 0")
    assert "3. Result 2" in out and "Result 3" not in out


def test_other_providers(base: str) -> None:
    assert "https://b.org/" in search(SearchProvider("brave", base + "/brave", "k1"), "q")
    with pytest.raises(ToolError, match="search_api_key"):
        search(SearchProvider("brave", base + "/brave", "wrong"), "q")
    assert "about local llm" in search(SearchProvider("tavily", base + "/tavily", "k2"), "local llm")
    method, _path, headers, _body = Fake.seen[-1]
    assert method == "POST" and headers.get("Authorization") == "Bearer k2"
    out = search(SearchProvider("duckduckgo", base + "/ddg"), "python")
    assert "1. Python home\n   https://python.org/\n   The official site." in out
    assert out.endswith("2. Docs\n   https://docs.python.org/")


def test_bad_answers_are_clear_errors(base: str) -> None:
    with pytest.raises(ToolError, match="could not be reached"):
        search(SearchProvider("searxng", "http://127.0.0.1:1"), "q")
    with pytest.raises(ToolError, match="JSON"):
        search(SearchProvider("brave", base + "/html", "k1"), "q")
    with pytest.raises(ToolError, match="empty"):
        search(SearchProvider("searxng", base), "  ")


def test_web_search_is_offered_only_when_configured_and_reachable(base: str, workspace: Path) -> None:
    def provider(**settings: object) -> SearchProvider | None:
        return asyncio.run(usable_search(Settings.from_keys(workspace=workspace, **settings)))

    assert provider() is None
    assert provider(search_provider="searxng") is None  # no URL
    assert provider(search_provider="brave") is None  # no key
    assert provider(search_provider="searxng", search_url="http://127.0.0.1:1") is None  # unreachable
    found = provider(search_provider="searxng", search_url=base)
    assert found is not None and found.kind == "searxng"
    with pytest.raises(ValueError, match="search_provider"):
        Settings.from_keys(search_provider="bing")


def test_search_settings_need_a_trusted_workspace() -> None:
    from hearth.runtime.trust import PROJECT_SAFE

    assert not {"search_provider", "search_url", "search_api_key", "network", "network_allow"} & PROJECT_SAFE
