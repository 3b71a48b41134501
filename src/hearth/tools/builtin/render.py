"""JavaScript-rendered pages for `web_fetch(render=true)`: the system's Chromium through Playwright.

The browser reaches the network only through a proxy on 127.0.0.1 that applies the same egress
policy as plain fetches and the sandbox's allow-list (names resolved by the policy, loopback,
private, link-local and metadata addresses refused, the checked address connected to), for every
request the page makes, redirects included. Chromium is told to send loopback through that proxy
too (`<-loopback>`), to resolve no name itself (every lookup but the proxy's address fails), and to
keep WebRTC off any path but the proxy. Service workers and downloads are off.

Not covered: Chromium runs without its own sandbox when Hearth runs as root (Playwright's default);
a page's scripts run in that browser for as long as the render takes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from urllib.parse import urlsplit

from hearth.core.errors import ToolError

# (port of a proxy on 127.0.0.1, the list its decisions are written to) for one render
ProxyOpener = Callable[[], AbstractAsyncContextManager[tuple[int, list[str]]]]
MAX_HTML = 5 << 20
SETTLE_MS = 3000  # after `load`, wait this long at most for the page's requests to stop
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser(configured: str = "") -> str | None:
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


@dataclass
class Renderer:
    open_proxy: ProxyOpener
    browser: str = ""  # Chromium's path; blank: found on PATH

    async def render(self, url: str, timeout: float) -> tuple[str, str]:
        """(final URL, the page's HTML after its scripts ran); ToolError with the reason."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ToolError(f"{url!r} is not an http:// or https:// URL.")
        try:
            from playwright.async_api import Error as BrowserError
            from playwright.async_api import async_playwright
        except ImportError:
            raise ToolError(
                "render=true needs Playwright: pip install 'hearth[render]' (or fetch without render)."
            ) from None
        browser_path = find_browser(self.browser)
        if browser_path is None:
            raise ToolError(
                "render=true needs Chromium: apt-get install chromium, or set browser_path "
                "(or fetch without render)."
            )
        async with self.open_proxy() as (port, log):
            args = [
                f"--proxy-server=http://127.0.0.1:{port}",
                "--proxy-bypass-list=<-loopback>",  # loopback goes through the proxy too
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
                "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
                "--disable-background-networking",
                "--disable-gpu",
            ]
            async with async_playwright() as pw:
                try:
                    browser = await pw.chromium.launch(
                        executable_path=browser_path, args=args, chromium_sandbox=os.geteuid() != 0
                    )
                except BrowserError as exc:
                    raise ToolError(f"Chromium did not start: {_first_line(exc)}") from None
                try:
                    context = await browser.new_context(service_workers="block", accept_downloads=False)
                    page = await context.new_page()
                    try:
                        response = await page.goto(url, wait_until="load", timeout=timeout * 1000)
                    except BrowserError as exc:
                        raise _failed(url, exc, log) from None
                    if response is not None and response.status >= 400:
                        text = await response.text()
                        if text.startswith("hearth network allow-list:"):
                            reason = text.partition(":")[2].strip()
                            raise ToolError(f"Refused {response.url}: {reason}.")
                        raise ToolError(f"{response.url} answered HTTP {response.status}.")
                    with contextlib.suppress(BrowserError):  # still busy: take the page as it is
                        await page.wait_for_load_state("networkidle", timeout=SETTLE_MS)
                    html = await page.content()
                    final = page.url
                finally:
                    await browser.close()
        if len(html) > MAX_HTML:
            html = html[:MAX_HTML]
        return final, html


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _failed(url: str, exc: Exception, log: list[str]) -> ToolError:
    message = _first_line(exc)
    refused = [entry for entry in log if entry.startswith("refused")]
    if refused and ("TUNNEL" in message or "PROXY" in message or "NAME_NOT_RESOLVED" in message):
        return ToolError(f"Refused {url}: {refused[-1].partition(': ')[2]}.")
    if "Download is starting" in message:
        return ToolError(f"{url} is a download, not a page; fetch it without render.")
    if "Timeout" in message:
        return ToolError(f"{url} did not finish loading in time; not read.")
    return ToolError(f"Could not render {url}: {message}")
