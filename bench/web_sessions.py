"""Web server under load: N WebSocket sessions at once, each a 20-step task.

A real `hearth web` process serves; the scripted model server (its own process) answers
instantly. Each model reply streams a chunk stamped with the moment it was sent (`@<ns>;`);
the WebSocket clients (this process) note when each stamp arrives, so latency covers the
HTTP hop to Hearth, the agent, the hub, the WebSocket and the client. Every session must
end `done` with all 19 tool results and 20 stamps seen: nothing lost.

Baseline: the same task in one session alone. Goal at 100 sessions: p99 under 50 ms.

    .venv/bin/python bench/web_sessions.py [--sessions 100] [--steps 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer

TOKEN = "bench-token"
STAMP = re.compile(r"@(\d{19});")


def _responder(steps: int) -> Any:
    def reply(body: dict[str, Any]) -> ScriptedReply:
        done = sum(1 for m in body["messages"] if m["role"] == "tool")
        if done < steps - 1:
            return ScriptedReply(
                text=f"@{{t}}; step {done + 1}",
                stamp=True,
                chunk_size=64,
                tool_calls=[ScriptedCall(name="read", arguments={"path": f"notes-{done + 1}.txt"})],
            )
        return ScriptedReply(text="@{t}; all steps done\nTASK_COMPLETE", stamp=True, chunk_size=64)

    return reply


def _model_server(port: int, total: int, steps: int, ready: Any) -> None:
    server = ScriptedServer([_responder(steps)] * total, port=port).start()
    ready.set()
    while True:
        time.sleep(3600)
    server.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Result:
    latencies_ms: list[float] = field(default_factory=list)
    events: int = 0
    errors: list[str] = field(default_factory=list)


async def _session(port: int, name: str, steps: int, result: Result) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    stamps = tool_results = 0
    async with connect(f"ws://127.0.0.1:{port}/ws/{name}", additional_headers=headers, max_size=2**24) as ws:
        hello = json.loads(await ws.recv())
        assert hello["type"] == "hello"
        await ws.send(json.dumps({"type": "message", "content": "do the steps"}))
        while True:
            raw = await asyncio.wait_for(ws.recv(), 120)
            now = time.time_ns()
            message = json.loads(raw)
            result.events += 1
            if message["type"] == "delta":
                for stamp in STAMP.findall(message["text"]):
                    stamps += 1
                    result.latencies_ms.append((now - int(stamp)) / 1e6)
            elif message["type"] == "tool_result":
                tool_results += 1
            elif message["type"] == "error":
                result.errors.append(f"{name}: {message['message']}")
            elif message["type"] == "done":
                if message["status"] != "done":
                    result.errors.append(f"{name}: ended {message['status']}: {message['reason']}")
                break
    if stamps != steps or tool_results != steps - 1:
        result.errors.append(f"{name}: saw {stamps}/{steps} stamps, {tool_results}/{steps - 1} tool results")


def _rss_mb(pid: int) -> tuple[float, float]:
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(sessions: int, steps: int) -> dict[str, Any]:
    ctx = multiprocessing.get_context("fork")
    model_port, web_port = _free_port(), _free_port()
    ready = ctx.Event()
    model = ctx.Process(
        target=_model_server, args=(model_port, sessions * steps + 10, steps, ready), daemon=True
    )
    model.start()
    ready.wait(10)
    home = Path(tempfile.mkdtemp(prefix="hearth-webbench-"))
    workspace = home / "ws"
    workspace.mkdir()
    for step in range(1, steps + 1):
        (workspace / f"notes-{step}.txt").write_text(f"a small file the agent reads at step {step}\n")
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "HEARTH_LLM_URL": f"http://127.0.0.1:{model_port}/v1",
        "HEARTH_WEB_TOKEN": TOKEN,
        "HEARTH_TOOL_MODE": "native",
        "HEARTH_MAX_ITERATIONS": str(steps + 5),
    }
    web = subprocess.Popen(
        [sys.executable, "-m", "hearth.apps.cli.main", "web", "-w", str(workspace), "--port", str(web_port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(
                    f"http://127.0.0.1:{web_port}/api/status", headers={"Authorization": f"Bearer {TOKEN}"}
                )
                break
            except httpx.TransportError:
                if web.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"hearth web did not start: {web.stdout.read() if web.stdout else ''}"
                    ) from None
                time.sleep(0.1)
        idle_rss, _ = _rss_mb(web.pid)
        result = Result()

        async def all_sessions() -> float:
            started = time.perf_counter()
            await asyncio.gather(*[_session(web_port, f"bench-{i}", steps, result) for i in range(sessions)])
            return time.perf_counter() - started

        wall = asyncio.run(all_sessions())
        rss, peak = _rss_mb(web.pid)
    finally:
        web.terminate()
        web.wait(10)
        model.terminate()
    lat = sorted(result.latencies_ms)
    return {
        "sessions": sessions,
        "steps": steps,
        "wall_s": wall,
        "events": result.events,
        "events_per_s": result.events / wall,
        "p50_ms": statistics.median(lat) if lat else float("nan"),
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan"),
        "stamps": len(lat),
        "errors": result.errors,
        "idle_rss_mb": idle_rss,
        "rss_mb": rss,
        "peak_rss_mb": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    baseline = run(1, args.steps)
    loaded = run(args.sessions, args.steps)
    print(f"{'':28}{'1 session (baseline)':>22}{f'{args.sessions} sessions':>18}")
    for key, label, fmt in (
        ("wall_s", "wall time (s)", "{:.1f}"),
        ("events", "WebSocket messages", "{:d}"),
        ("events_per_s", "messages per second", "{:.0f}"),
        ("p50_ms", "chunk→client p50 (ms)", "{:.1f}"),
        ("p99_ms", "chunk→client p99 (ms)", "{:.1f}"),
        ("stamps", "stamped chunks seen", "{:d}"),
        ("idle_rss_mb", "server RSS idle (MB)", "{:.0f}"),
        ("peak_rss_mb", "server RSS peak (MB)", "{:.0f}"),
    ):
        print(f"{label:28}{fmt.format(baseline[key]):>22}{fmt.format(loaded[key]):>18}")
    errors = baseline["errors"] + loaded["errors"]
    print(f"{'errors / lost':28}{len(baseline['errors']):>22}{len(loaded['errors']):>18}")
    for error in errors[:10]:
        print("  " + error)
    verdict = "met" if loaded["p99_ms"] < 50 and not errors else "NOT met"
    print(f"goal (p99 < 50 ms at {args.sessions} sessions, no errors, nothing lost): {verdict}")


if __name__ == "__main__":
    main()
