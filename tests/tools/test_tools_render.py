"""`web_fetch(render=true)`: Debian's Chromium through Playwright, every request through the egress
policy (a proxy on 127.0.0.1 applying `ProxyPolicy`), against a real HTTP server on 127.0.0.1 that
only the name `site.test` is allowed to reach."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.proxy import ProxyPolicy, loopback_proxy
from hearth.tools.base import RunContext
from hearth.tools.builtin.render import Renderer
from hearth.tools.builtin.web import WebFetchRenderInput, web_tools
from requirements import CHROMIUM, need_module

need_module("chromium")

# The text exists only once the script ran; the script also tries to reach the same server by
# its IP literal, by a name resolving to loopback, and the metadata address.
JS_PAGE = """<html><head><title>js</title></head><body><h1>Static heading</h1><div id="out"></div>
<script>
document.getElementById('out').textContent = 'Built by script: ' + [1, 2, 3].map(x => x * 7).join('-');
fetch('/data').then(r => r.text()).then(t => {
  const p = document.createElement('p'); p.textContent = 'Data said ' + t; document.body.appendChild(p);
});
for (const u of ['http://127.0.0.1:PORT/secret', 'http://rebound.test:PORT/secret',
                 'http://169.254.169.254/latest/meta-data/']) {
  fetch(u, {mode: 'no-cors'}).catch(() => {});
  const img = new Image(); img.src = u + '?img';
}
</script></body></html>"""


class Site(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []
    port: ClassVar[int] = 0

    def do_GET(self) -> None:
        self.seen.append(self.path)
        routes = {
            "/js": ("text/html", JS_PAGE.replace("PORT", str(self.port)).encode()),
            "/data": ("text/plain", b"forty-two"),
            "/secret": ("text/plain", b"TOP SECRET"),
        }
        if self.path == "/to-loopback":
            self._send(302, "text/plain", b"", {"Location": f"http://127.0.0.1:{self.port}/secret"})
        elif self.path == "/to-rebound":
            self._send(302, "text/plain", b"", {"Location": f"http://rebound.test:{self.port}/secret"})
        elif self.path == "/hop":
            self._send(302, "text/plain", b"", {"Location": "/js"})
        elif self.path in routes:
            self._send(200, *routes[self.path])
        else:
            self._send(404, "text/plain", b"missing")

    def _send(self, status: int, kind: str, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    Site.port, Site.seen = server.server_address[1], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Site.port
    server.shutdown()
    server.server_close()


async def _resolver(host: str, port: int) -> list[str]:
    return {"site.test": ["127.0.0.1"], "rebound.test": ["127.0.0.1"]}[host]


def only_the_test_host() -> ProxyPolicy:
    """`site.test` (on loopback) explicitly allowed, and nothing else."""
    return ProxyPolicy(["site.test"], resolver=_resolver, allow_private=True)


def render(workspace: Path, policy: ProxyPolicy, url: str, **extra: object) -> str:
    (tool,) = web_tools(policy.check, Renderer(lambda: loopback_proxy(policy), CHROMIUM))
    args = WebFetchRenderInput.model_validate({"url": url, "render": True, **extra})
    return asyncio.run(tool.run(args, RunContext(paths=SafePaths(workspace))))


def test_render_runs_the_pages_script_and_nothing_leaves_through_another_door(
    workspace: Path, site: int
) -> None:
    out = render(workspace, only_the_test_host(), f"http://site.test:{site}/hop")
    assert out.startswith(f"URL: http://site.test:{site}/js")  # the redirect followed, through the proxy
    assert "Built by script: 7-14-21" in out and "Data said forty-two" in out
    assert "# Static heading" in out and "document.getElementById" not in out
    # the script's requests to the IP literal and to a name resolving to loopback were refused
    assert "/secret" not in " ".join(Site.seen) and "?img" not in " ".join(Site.seen)
    assert "/data" in Site.seen


def test_without_render_the_script_text_is_not_there(workspace: Path, site: int) -> None:
    policy = only_the_test_host()
    (tool,) = web_tools(policy.check, Renderer(lambda: loopback_proxy(policy), CHROMIUM))
    args = WebFetchRenderInput(url=f"http://site.test:{site}/js")
    out = asyncio.run(tool.run(args, RunContext(paths=SafePaths(workspace))))
    assert "Static heading" in out and "Built by script" not in out


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/js",  # an IP literal
        "http://localhost:{port}/js",  # loopback by name: Chromium must not bypass the proxy
        "http://[::1]:{port}/js",
        "http://rebound.test:{port}/js",  # resolves to loopback, not in the allow-list
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/",
        "https://127.0.0.1:{port}/js",  # through CONNECT
        "http://site.test:{port}/to-loopback",  # redirects are checked again
        "http://site.test:{port}/to-rebound",
    ],
)
def test_render_refuses_what_the_policy_refuses(workspace: Path, site: int, url: str) -> None:
    with pytest.raises(ToolError, match="Refused"):
        render(workspace, only_the_test_host(), url.format(port=site))
    assert "/secret" not in Site.seen and "/js" not in Site.seen


def test_render_of_a_file_url_or_other_scheme_is_refused_before_the_browser(workspace: Path) -> None:
    for url in ("file:///etc/passwd", "chrome://version", "javascript:alert(1)", "data:text/html,hi"):
        with pytest.raises(ToolError, match="not an http"):
            render(workspace, only_the_test_host(), url)


def test_a_missing_page_is_a_clear_error(workspace: Path, site: int) -> None:
    with pytest.raises(ToolError, match="HTTP 404"):
        render(workspace, only_the_test_host(), f"http://site.test:{site}/nothing")


def test_render_is_offered_only_with_the_setting(workspace: Path) -> None:
    from hearth.runtime.config import Settings
    from hearth.runtime.offer import full_toolset
    from hearth.runtime.trust import PROJECT_SAFE

    def params(**settings: object) -> set[str]:
        tools = full_toolset(
            Settings.from_keys(workspace=workspace, network=True, **settings), isolated=False
        )
        tool = tools.get("web_fetch")
        assert tool is not None
        return set(tool.parameter_names())

    assert "render" not in params()
    assert "render" in params(web_render=True)
    assert not {"web_render", "browser_path"} & PROJECT_SAFE  # a project cannot name the browser run
