"""Sub-agents: wall time of 8 independent sub-tasks run together against one at a time, and how
much of the parent's context each child's result takes.

A parent calls `decompose` with 8 independent tasks; each child makes two requests (write a file
into its scratch folder, then finish). The scripted server holds every answer for a fixed delay
(a model's latency), so what the run costs beyond the delays is Hearth's. Everything is real: the
runtime, the HTTP client, the dispatcher, the file tool, the SQLite store.

Goals: with concurrency, the `decompose` call takes within 1.3x of the longest child
plus overhead; each child's result costs the parent under 300 tokens (results, not transcripts).

    .venv/bin/python bench/subagents.py [--delay 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from hearth.agent.policy import PermissionMode
from hearth.core.events import ToolResult
from hearth.runtime.config import Settings
from hearth.runtime.conversation import open_conversation
from hearth.runtime.session import open_runtime
from hearth.testing.script import ScriptedCall, ScriptedReply, estimate_tokens, prompt_text
from hearth.testing.server import ScriptedServer

TASKS = 8
CHARS_PER_TOKEN = 4  # the usual rough count for English and JSON


def _child_write(body: dict[str, Any]) -> ScriptedReply:
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    scratch = user.split("scratch folder is `")[1].split("`")[0]
    content = "result line\n" * 40
    return ScriptedReply(
        tool_calls=[ScriptedCall(name="write", arguments={"path": f"{scratch}/out.txt", "content": content})]
    )


def _script(server: ScriptedServer) -> None:
    tasks = [
        {
            "id": f"t{i}",
            "objective": f"SUBTASK-{i}: write the part {i} of the report",
            "deliverable": "out.txt",
        }
        for i in range(TASKS)
    ]
    server.add(
        ScriptedReply(tool_calls=[ScriptedCall(name="decompose", arguments={"tasks": tasks})]),
        ScriptedReply(text="All parts written.\nTASK_COMPLETE"),
    )
    for i in range(TASKS):
        server.route(
            f"SUBTASK-{i}:",
            _child_write,
            ScriptedReply(text=f"Wrote part {i} ({40} lines) to out.txt.\nTASK_COMPLETE"),
        )


async def _run(delay: float, concurrency: int) -> dict[str, Any]:
    server = ScriptedServer(request_delay=delay).start()
    workspace = Path(tempfile.mkdtemp(prefix="hearth-bench-sub-"))
    try:
        _script(server)
        rt = await open_runtime(
            Settings.from_keys(
                llm_url=server.url,
                workspace=workspace,
                sandbox="process",
                permission_mode=PermissionMode.AUTO,
                checkpoints=False,
                subagent_concurrency=concurrency,
                model_parallel=TASKS,
            )
        )
        try:
            conv = open_conversation(rt)
            started = time.perf_counter()
            finished = await conv.send("Write the 8-part report.")
            total = time.perf_counter() - started
            result = next(e for e in conv.events if isinstance(e, ToolResult) and e.name == "decompose")
            children = rt.store.children(conv.id)
            transcript_chars = sum(len(e.model_dump_json()) for c in children for e in rt.store.events(c))
        finally:
            await rt.aclose()
        combined = json.loads(result.output)
        # The parent's context as the server saw it: its request after the results against the one before
        parent_requests = [b for b in server.requests if "8-part report" in json.dumps(b["messages"][:2])]
        before, after = (estimate_tokens(prompt_text(b)) for b in parent_requests[:2])
        assert finished.status.value == "done", finished.reason
        assert combined["status"] == "done", combined
        return {
            "total": total,
            "decompose": result.duration_ms / 1000,
            "longest_child": max(t["seconds"] for t in combined["tasks"].values()),
            "result_tokens_per_child": len(result.output) / CHARS_PER_TOKEN / TASKS,
            "context_growth_per_child": (after - before) / TASKS,  # the decompose call's own text included
            "transcript_tokens_per_child": transcript_chars / CHARS_PER_TOKEN / TASKS,
            "violations": len(server.violations),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the server holds each answer")
    args = parser.parse_args()
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="hearth-bench-config-"))
    together = asyncio.run(_run(args.delay, TASKS))
    alone = asyncio.run(_run(args.delay, 1))
    ratio = together["decompose"] / together["longest_child"]
    print(f"{TASKS} independent sub-tasks, 2 requests each, server delay {args.delay:.2f}s per request")
    print(
        f"  concurrent (limit {TASKS}): decompose {together['decompose']:.2f}s, longest child "
        f"{together['longest_child']:.2f}s -> {ratio:.2f}x the longest child (goal <= 1.3x)"
    )
    print(
        f"  sequential (limit 1):  decompose {alone['decompose']:.2f}s "
        f"({alone['decompose'] / together['decompose']:.1f}x the concurrent run)"
    )
    print(
        f"  parent context growth per child: {together['context_growth_per_child']:.0f} tokens (goal < 300), "
        f"of which its result {together['result_tokens_per_child']:.0f}; "
        f"a child's own transcript: {together['transcript_tokens_per_child']:.0f} tokens"
    )
    print(f"  protocol violations: {together['violations'] + alone['violations']}")


if __name__ == "__main__":
    main()
