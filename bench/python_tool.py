"""The `python` tool's round trip against a fresh sandboxed interpreter per call, and `web_fetch`
on a 1 MB page from a local server.

Goal: `1+1` through the persistent session in under 30 ms after the first call.

    python bench/python_tool.py [--calls 30] [--backend bwrap] [--fetches N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.proxy import ProxyPolicy
from hearth.tools.base import RunContext
from hearth.tools.builtin.python import PythonInput, python_tools
from hearth.tools.builtin.web import WebFetchInput, web_tools

PARAGRAPH = b"<p>Some <b>text</b> with <a href='/x'>a link</a> and more words to read.</p>\n"
PAGE = b"<html><body><h1>Big</h1>" + PARAGRAPH * (1_000_000 // len(PARAGRAPH)) + b"</body></html>"


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms"


async def python_bench(ws: Path, backend: str, calls: int) -> None:
    try:
        choice = await choose_sandbox(backend, ws)
    except HearthError as exc:  # bubblewrap missing (or another backend asked for that cannot run)
        print(f"python tool: skipped, the {backend} sandbox cannot run here: {exc.message}")
        print("  (install it, or measure another backend with --backend landlock / process)")
        return
    ctx = RunContext(paths=SafePaths(ws), session_id="bench", sandbox=choice.runner)
    (tool,) = python_tools()
    try:
        started = time.perf_counter()
        await tool.run(PythonInput(code="1+1"), ctx)
        first = time.perf_counter() - started
        warm = []
        for _ in range(calls):
            started = time.perf_counter()
            assert await tool.run(PythonInput(code="1+1"), ctx) == "2"
            warm.append(time.perf_counter() - started)
        fresh = []
        for _ in range(min(calls, 10)):
            started = time.perf_counter()
            result = await choice.runner.run(ExecSpec(command="python3 -c 'print(1+1)'", cwd=ws))
            assert result.output.strip() == "2"
            fresh.append(time.perf_counter() - started)
        print(f"python tool ({choice.runner.name}): first call {first * 1000:.0f} ms")
        print(f"  persistent session, 1+1: {ms(warm)} over {calls} calls")
        print(f"  new sandboxed interpreter per call: {ms(fresh)} over {len(fresh)} calls")
    finally:
        await choice.runner.close()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: object) -> None:
        pass


async def fetch_bench(ws: Path, calls: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    async def resolve(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    policy = ProxyPolicy(["bench.test"], resolver=resolve, allow_private=True)
    (tool,) = web_tools(policy.check)
    ctx = RunContext(paths=SafePaths(ws))
    url = f"http://bench.test:{server.server_address[1]}/"
    try:
        for max_chars in (20000, 200000):  # the default, and the most a call may ask for
            times = []
            for _ in range(calls):
                started = time.perf_counter()
                out = await tool.run(WebFetchInput(url=url, max_chars=max_chars), ctx)
                times.append(time.perf_counter() - started)
                assert "# Big" in out
            print(
                f"web_fetch, {len(PAGE) / 1e6:.1f} MB HTML page to Markdown, max_chars={max_chars}: "
                f"{ms(times)} over {calls} calls"
            )
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--backend", default="bwrap")
    parser.add_argument(
        "--fetches",
        type=int,
        default=0,
        help="web_fetch calls per size (default: a tenth of --calls, at least 3)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(python_bench(Path(folder), args.backend, args.calls))
        asyncio.run(fetch_bench(Path(folder), args.fetches or max(3, args.calls // 10)))


if __name__ == "__main__":
    main()
