"""MCP costs, measured with the real CLI, real servers and the scripted model server.

1. Prompt tokens (the scripted server's estimate of the system prompt and tool list) without MCP
   and with the filesystem server ready (its 14 tools summarised in `mcp_tools`). Goal: under
   +600 tokens.
2. Time from starting `hearth run` to the first model request, with no servers and with three
   (filesystem, everything, time). Goal: unchanged.
3. Round trip of a tool call: the filesystem server's `read_text_file` against the built-in `read`
   on the same file, each called directly (no permission step) N times in one process.

    .venv/bin/python bench/mcp_overhead.py [--runs 3] [--calls 50] [--record out.json]

Needs the npm servers in .ci/node (see .ci/run) and node.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hearth.testing.script import ScriptedCall, ScriptedReply, estimate_tokens, prompt_text
from hearth.testing.server import ScriptedServer

ROOT = Path(__file__).resolve().parents[1]
NPM = ROOT / ".ci" / "node" / "node_modules" / "@modelcontextprotocol"


def servers(workspace: Path, which: list[str]) -> dict[str, Any]:
    every = {
        "filesystem": {
            "command": "node",
            "args": [str(NPM / "server-filesystem/dist/index.js"), str(workspace)],
        },
        "everything": {"command": "node", "args": [str(NPM / "server-everything/dist/index.js"), "stdio"]},
        "time": {"command": str(Path(sys.executable).parent / "mcp-server-time")},
    }
    return {name: every[name] for name in which}


def first_request(which: list[str]) -> tuple[list[dict[str, Any]], float]:
    """The requests `hearth run` sends (the model looks the MCP tools up first, which waits for
    the servers), and the seconds from start to the first."""
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer() as model:
        home, ws = Path(tmp, "home"), Path(tmp, "ws")
        ws.mkdir(parents=True)
        (home / ".config/hearth").mkdir(parents=True)
        (home / ".config/hearth/mcp.json").write_text(json.dumps({"mcpServers": servers(ws, which)}))
        lookup = ScriptedReply(tool_calls=[ScriptedCall(name="mcp_tools", arguments={})])
        model.add(
            lookup if which else ScriptedReply(text="TASK_COMPLETE"), ScriptedReply(text="TASK_COMPLETE")
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTH_", "LLM_"))}
        env.update(
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_DATA_HOME=str(home / ".local/share"),
            HEARTH_LLM_URL=model.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_SANDBOX="process" if "time" in which else "auto",
        )
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "hearth.apps.cli.main", "run", "hi", "-w", str(ws)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        while not model.requests and proc.poll() is None:
            time.sleep(0.005)
        waited = time.monotonic() - started
        _, err = proc.communicate(timeout=60)
        if not model.requests:
            raise SystemExit(f"hearth run sent no request: {err}")
        return list(model.requests), waited


def tokens(body: dict[str, Any]) -> int:
    """The system prompt and the tool list: what every request carries before the conversation."""
    system = [m for m in body["messages"] if m.get("role") == "system"]
    return estimate_tokens(prompt_text({"tools": body.get("tools"), "messages": system}))


async def round_trips(calls: int) -> dict[str, float]:
    from hearth.mcp.client import McpServers
    from hearth.mcp.config import ServerConfig
    from hearth.mcp.tools import mcp_tools
    from hearth.runtime.mcp_servers import sandbox_launcher
    from hearth.runtime.offer import default_toolset
    from hearth.sandbox.choice import choose_sandbox
    from hearth.sandbox.paths import SafePaths
    from hearth.tools.base import RunContext

    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp)
        (ws / "f.txt").write_text("hello\n" * 100)
        sandbox = await choose_sandbox("auto", ws)
        entry = servers(ws, ["filesystem"])["filesystem"]
        config = ServerConfig("filesystem", "bench", command=entry["command"], args=tuple(entry["args"]))
        group = McpServers([config], sandbox_launcher(sandbox.runner, ws))
        group.start()
        await group.settled()
        try:
            tools, _ = mcp_tools(group.connections[0], lambda _: False)
            remote = next(t for t in tools if t.remote_name == "read_text_file")
            builtin = default_toolset().get("read")
            assert builtin is not None
            ctx = RunContext(paths=SafePaths(ws), sandbox=sandbox.runner)
            out: dict[str, float] = {}
            for label, tool, args in (
                ("builtin_read_ms", builtin, {"path": "f.txt"}),
                ("mcp_read_text_file_ms", remote, {"path": str(ws / "f.txt")}),
            ):
                times = []
                for _ in range(calls):
                    began = time.perf_counter()
                    await tool.run(tool.input_model.model_validate(args), ctx)
                    times.append((time.perf_counter() - began) * 1000)
                out[label] = round(statistics.median(times), 2)
            return out
        finally:
            await group.stop()
            await sandbox.runner.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--record")
    opts = parser.parse_args()
    base = first_request([])[0][0]
    with_fs = first_request(["filesystem"])[0][1]  # after the lookup: the server is ready
    result: dict[str, Any] = {
        "first_prompt_tokens": tokens(base),
        "first_prompt_tokens_with_filesystem": tokens(with_fs),
        "filesystem_tools_listed": sum(
            1 for t in with_fs.get("tools", []) if t["function"]["name"].startswith("mcp__")
        ),
    }
    result["added_tokens"] = result["first_prompt_tokens_with_filesystem"] - result["first_prompt_tokens"]
    for label, which in (("no_servers", []), ("three_servers", ["filesystem", "everything", "time"])):
        waits = [first_request(which)[1] for _ in range(opts.runs)]
        result[f"seconds_to_first_request_{label}"] = round(statistics.median(waits), 3)
    result.update(asyncio.run(round_trips(opts.calls)))
    print(json.dumps(result, indent=2))
    if opts.record:
        Path(opts.record).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
