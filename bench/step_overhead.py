"""Hearth's own cost per agent step, against the scripted server answering instantly.

A 20-step task (19 `read` calls, then done) runs through the real runtime: the model client,
the dispatcher, the sandboxed file tool, the SQLite store. Baseline: the same 20 requests,
captured from that run, replayed straight to the server with one httpx client (no agent).
The difference is what Hearth adds per step.

    .venv/bin/python bench/step_overhead.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from hearth.runtime.config import load_settings
from hearth.runtime.session import open_runtime, start_agent
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer

STEPS = 20
RUNS = 7


def _responder(body: dict[str, Any]) -> ScriptedReply:
    done = sum(1 for m in body["messages"] if m["role"] == "tool")
    if done < STEPS - 1:
        call = ScriptedCall(name="read", arguments={"path": f"notes-{done + 1}.txt"})
        return ScriptedReply(text="next", tool_calls=[call])
    return ScriptedReply(text="done\nTASK_COMPLETE")


async def _agent_runs(server: ScriptedServer, workspace: Path) -> list[float]:
    settings = load_settings(
        {"workspace": workspace, "llm_url": server.url, "tool_mode": "native"}, environ={}
    ).settings
    rt = await open_runtime(settings)
    times = []
    try:
        for _ in range(RUNS):
            agent = start_agent(rt)
            started = time.perf_counter()
            finished = await agent.run("read the notes one by one")
            times.append(time.perf_counter() - started)
            assert finished.status.value == "done", finished
    finally:
        await rt.aclose()
    return times


async def _replay(server: ScriptedServer, bodies: list[dict[str, Any]]) -> list[float]:
    times = []
    async with httpx.AsyncClient(timeout=30, headers={"Accept": "text/event-stream"}) as client:
        for _ in range(RUNS):
            started = time.perf_counter()
            for body in bodies:
                async with client.stream("POST", server.url + "/chat/completions", json=body) as resp:
                    async for _ in resp.aiter_lines():
                        pass
            times.append(time.perf_counter() - started)
    return times


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="hearth-steps-"))
    os.environ.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    workspace = home / "ws"
    workspace.mkdir()
    for step in range(1, STEPS + 1):
        (workspace / f"notes-{step}.txt").write_text(f"note {step}\n")
    with ScriptedServer([_responder] * (STEPS * RUNS * 2)) as server:
        agent = asyncio.run(_agent_runs(server, workspace))
        bodies = server.requests[-STEPS:]
        replay = asyncio.run(_replay(server, bodies))
    a, r = statistics.median(agent) * 1000, statistics.median(replay) * 1000
    print(f"{'':34}{'HTTP only (baseline)':>22}{'Hearth':>12}")
    print(f"{'20-step task, median (ms)':34}{r:>22.0f}{a:>12.0f}")
    print(f"{'per step (ms)':34}{r / STEPS:>22.1f}{a / STEPS:>12.1f}")
    print(f"Hearth adds {(a - r) / STEPS:.1f} ms per step ({RUNS} runs each)")


if __name__ == "__main__":
    main()
