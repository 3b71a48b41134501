"""`web_fetch` against a real HTTP server on 127.0.0.1, through the sandbox's egress policy."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.proxy import ProxyPolicy, Refused
from hearth.tools.base import RunContext
from hearth.tools.builtin.web import WebFetchInput, web_tools

PAGE = b"""<html><head><title>t</title><script>var secret = 1;</script></head>
<body><h1>Hello</h1><p>Some <b>bold</b> text and <a href="/x">a link</a>.</p>
<div id="main"><ul><li>one</li><li>two</li></ul></div></body></html>"""


LONG = (
    b"<html><head><script>"
    + b"var x = 1;" * 50000
    + b"</script></head><body><h1>Long</h1>"
    + b"<p>Some <b>words</b> here.</p>\n" * 10000  # 300 kB: past what is read for 20,000 characters
    + b"<div id='end'>THE LAST WORDS</div></body></html>"
)


class Handler(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {}

    def do_GET(self) -> None:
        if self.path == "/loop":
            self._send(302, {"Location": "/loop"}, b"")
            return
        if self.path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            try:
                for _ in range(2000):  # 2000 x 64 KiB = 128 MB offered, no length given
                    self.wfile.write(b"a" * 65536)
            except OSError:
                pass
            return
        if self.path == "/slow":
            time.sleep(3)
        status, headers, body = self.routes.get(self.path, (404, {}, b"missing"))
        self._send(status, headers, body)

    def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    Handler.routes = {
        "/page": (200, {"Content-Type": "text/html; charset=utf-8"}, PAGE),
        "/hop": (302, {"Location": "/page"}, b""),
        "/to-loopback": (302, {"Location": f"http://127.0.0.1:{port}/page"}, b""),
        "/to-metadata": (302, {"Location": "http://169.254.169.254/latest/meta-data/"}, b""),
        "/to-rebound": (302, {"Location": f"http://rebound.test:{port}/page"}, b""),
        "/bin": (200, {"Content-Type": "application/octet-stream"}, b"\x00\x01\x02"),
        "/lying": (200, {"Content-Type": "text/plain"}, b"ELF\x00\x00\x00binary"),
        "/json": (200, {"Content-Type": "application/json"}, b'{"a": 1}'),
        "/long": (200, {"Content-Type": "text/html"}, LONG),
    }
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield port
    server.shutdown()
    server.server_close()


async def _resolver(host: str, port: int) -> list[str]:
    return {"site.test": ["127.0.0.1"], "rebound.test": ["127.0.0.1"], "inner.test": ["10.0.0.7"]}[host]


def fetch(ws: Path, policy: ProxyPolicy, url: str, **extra: object) -> str:
    (tool,) = web_tools(policy.check)
    ctx = RunContext(paths=SafePaths(ws))
    return asyncio.run(tool.run(WebFetchInput.model_validate({"url": url, **extra}), ctx))


def allowed() -> ProxyPolicy:
    """The test server explicitly allowed: a named host on loopback, private addresses let through."""
    return ProxyPolicy(["site.test"], resolver=_resolver, allow_private=True)


def strict() -> ProxyPolicy:
    return ProxyPolicy(["site.test", "rebound.test", "inner.test"], resolver=_resolver)


def test_fetch_returns_markdown_with_final_url(workspace: Path, site: int) -> None:
    out = fetch(workspace, allowed(), f"http://site.test:{site}/hop")
    assert out.startswith(f"URL: http://site.test:{site}/page")
    assert "# Hello" in out and "**bold**" in out and "[a link](/x)" in out
    assert "secret" not in out  # scripts dropped
    picked = fetch(workspace, allowed(), f"http://site.test:{site}/page", selector="#main")
    assert "one" in picked and "Hello" not in picked
    assert '"a": 1' in fetch(workspace, allowed(), f"http://site.test:{site}/json")
    cut = fetch(workspace, allowed(), f"http://site.test:{site}/page", max_chars=200)
    assert len(cut) < 320 or "[cut at" in cut


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/page",
        "http://10.1.2.3/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:{port}/page",
        "http://localhost:{port}/page",
        "http://rebound.test:{port}/page",  # a name resolving to loopback
        "http://inner.test/",  # a name resolving to a private address
        "http://other.test/",  # not in the allow-list
        "file:///etc/passwd",
        "ftp://site.test/x",
    ],
)
def test_refuses_internal_addresses(workspace: Path, site: int, url: str) -> None:
    with pytest.raises(ToolError) as err:
        fetch(workspace, strict(), url.format(port=site))
    assert "Refused" in str(err.value) or "not an http" in str(err.value)


@pytest.mark.parametrize("path", ["/to-loopback", "/to-metadata", "/to-rebound"])
def test_redirects_are_checked_again(workspace: Path, site: int, path: str) -> None:
    # The first hop is allowed (site.test on loopback, explicitly); where it redirects is not.
    policy = ProxyPolicy(["site.test", "rebound.test"], resolver=_resolver, allow_private=False)

    async def only_site(host: str, port: int) -> str:
        if host == "site.test":
            return "127.0.0.1"
        return await policy.check(host, port)

    (tool,) = web_tools(only_site)
    ctx = RunContext(paths=SafePaths(workspace))
    with pytest.raises(ToolError, match="Refused"):
        asyncio.run(tool.run(WebFetchInput(url=f"http://site.test:{site}{path}"), ctx))


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/loop", "redirects"),
        ("/huge", "byte limit"),
        ("/bin", "not a text page"),
        ("/lying", "binary"),
        ("/nothing", "HTTP 404"),
    ],
)
def test_hostile_pages_give_clear_errors(workspace: Path, site: int, path: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        fetch(workspace, allowed(), f"http://site.test:{site}{path}")


def test_unreachable_host_is_a_clear_error(workspace: Path) -> None:
    async def closed(host: str, port: int) -> str:
        return "127.0.0.1"

    (tool,) = web_tools(closed)
    with pytest.raises(ToolError, match="Could not fetch"):
        asyncio.run(
            tool.run(WebFetchInput(url="http://site.test:1/"), RunContext(paths=SafePaths(workspace)))
        )


def test_web_fetch_is_offered_only_when_the_network_is_configured(workspace: Path) -> None:
    from hearth.runtime.config import Settings
    from hearth.runtime.offer import full_toolset
    from hearth.sandbox.choice import choose_sandbox

    async def names(**settings: object) -> list[str]:
        choice = await choose_sandbox("process", workspace)
        try:
            return full_toolset(
                Settings.from_keys(workspace=workspace, **settings), isolated=choice.runner.isolated
            ).names()
        finally:
            await choice.runner.close()

    assert {"get_time", "data_view"} <= set(asyncio.run(names()))
    assert "web_fetch" not in asyncio.run(names())
    assert "web_fetch" in asyncio.run(names(network_allow=["example.com"]))
    assert "web_fetch" in asyncio.run(names(network=True))
    assert "python" not in asyncio.run(names())  # the process runner does not isolate


def test_network_true_reaches_any_public_name_but_still_no_internal_address() -> None:
    async def resolve(host: str, port: int) -> list[str]:
        return {"public.test": ["93.184.216.34"], "sneaky.test": ["93.184.216.34", "127.0.0.1"]}[host]

    policy = ProxyPolicy([], resolver=resolve, any_domain=True)
    assert asyncio.run(policy.check("public.test", 443)) == "93.184.216.34"
    for host in ("sneaky.test", "127.0.0.1", "169.254.169.254"):
        with pytest.raises(Refused, match=r"not a public address|IP address"):
            asyncio.run(policy.check(host, 80))
    with pytest.raises(Refused, match="allow-list"):
        asyncio.run(ProxyPolicy([], resolver=resolve).check("public.test", 443))


def test_a_long_page_is_read_only_as_far_as_it_is_shown(workspace: Path, site: int) -> None:
    out = fetch(workspace, allowed(), f"http://site.test:{site}/long")
    assert "# Long" in out and "THE LAST WORDS" not in out and "var x" not in out
    assert "[cut at 20000 of" in out or "only its start was read" in out
    short = fetch(workspace, allowed(), f"http://site.test:{site}/long", max_chars=200)
    assert "# Long" in short and len(short) < 400
    # a selector looks at the whole page
    assert "THE LAST WORDS" in fetch(workspace, allowed(), f"http://site.test:{site}/long", selector="#end")


def test_a_named_local_origin_is_reachable_and_only_it(workspace: Path, site: int) -> None:
    policy = ProxyPolicy([], local=[f"http://127.0.0.1:{site}"])
    assert "# Hello" in fetch(workspace, policy, f"http://127.0.0.1:{site}/page")
    with pytest.raises(ToolError, match=rf"web_allow_local lets only http://127.0.0.1:{site} through"):
        fetch(workspace, policy, f"http://127.0.0.1:{site + 1 if site < 65535 else site - 1}/page")
    localhost = ProxyPolicy([], local=[f"localhost:{site}"])  # the scheme may be left out
    assert "# Hello" in fetch(workspace, localhost, f"http://localhost:{site}/page")
    for bad in ("http://127.0.0.1:8000/path", "ftp://127.0.0.1:21", "http://:80"):
        with pytest.raises(ValueError, match="not an origin"):
            ProxyPolicy([], local=[bad]).local_allowed("127.0.0.1", 8000)


def test_a_refused_local_address_says_how_to_allow_it_and_names_no_list_that_is_not_set(
    workspace: Path, site: int
) -> None:
    with pytest.raises(ToolError) as anywhere:
        fetch(workspace, ProxyPolicy([], any_domain=True), f"http://127.0.0.1:{site}/page")
    message = str(anywhere.value)
    assert "only domain names are reachable" in message and "allowed domain" not in message
    assert 'web_allow_local = ["http://127.0.0.1:8000"]' in message
    with pytest.raises(ToolError, match="only allowed domain names are reachable"):
        fetch(workspace, ProxyPolicy(["example.org"]), f"http://127.0.0.1:{site}/page")
    with pytest.raises(ToolError, match="web_allow_local"):
        fetch(workspace, ProxyPolicy([], any_domain=True), f"http://localhost:{site}/page")


def test_the_setting_offers_web_fetch_and_checks_its_entries(workspace: Path) -> None:
    from pydantic import ValidationError

    from hearth.runtime.config import Settings
    from hearth.runtime.offer import full_toolset

    tools = full_toolset(
        Settings.from_keys(workspace=workspace, web_allow_local=["http://127.0.0.1:8000"]), isolated=False
    )
    assert "web_fetch" in tools.names()
    with pytest.raises(ValidationError, match="not an origin"):
        Settings.from_keys(workspace=workspace, web_allow_local=["127.0.0.1:8000/docs"])
