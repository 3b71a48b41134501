"""The pipeline's scheduling overhead per task, against the scripted server answering instantly.

A plan of N independent tasks runs through the real runner (SQLite queue with claims, heartbeat,
recovery scan, plan-folder scan, the plans/ guard, the verifier with nothing to check, the
reviewer's request, settling, the quality report). Two measures of what the pipeline adds:

- inside: the run's wall time less the time spent in the coder sessions' `send` and in the
  reviewer's requests (timed around those calls), per task;
- against a baseline: the same N coder sessions and reviewer requests made directly, one after
  another, with no queue (the two alternate which goes first, run to run).

Goal: under 50 ms per task.

    .venv/bin/python bench/pipeline_overhead.py [--tasks 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from hearth.pipeline import runner as runner_module
from hearth.pipeline.coder import open_coder, task_message
from hearth.pipeline.reviewer import Review, review
from hearth.pipeline.runner import PipelineOptions, Runner, open_pipeline_store
from hearth.runtime.config import load_settings
from hearth.runtime.conversation import Conversation
from hearth.runtime.session import open_runtime
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer


def _answer(body: dict[str, Any]) -> ScriptedReply:
    first = next(m["content"] for m in body["messages"] if m["role"] == "user")
    if first.startswith("Split the plan"):
        n = int(first.split("`")[1].split("-")[1])
        tasks = [{"id": f"t{i}", "title": f"Task {i}", "description": "Say done."} for i in range(n)]
        return ScriptedReply(text=json.dumps({"tasks": tasks}))
    if first.startswith("Review task"):
        return ScriptedReply(text='{"verdict": "pass", "reasons": [], "summary": "ok"}')
    return ScriptedReply(text="Done.\nTASK_COMPLETE")


class TimedRunner(Runner):
    """The runner, with the time spent in the model's work added up."""

    working = 0.0
    opening = 0.0

    async def _guarded(self, conv: Conversation, text: str | None) -> Any:
        started = time.perf_counter()
        try:
            return await super()._guarded(conv, text)
        finally:
            TimedRunner.working += time.perf_counter() - started


async def _timed_review(*args: Any) -> Review:
    started = time.perf_counter()
    try:
        return await review(*args)
    finally:
        TimedRunner.working += time.perf_counter() - started


def _timed_open(*args: Any) -> Conversation:
    started = time.perf_counter()
    try:
        return open_coder(*args)
    finally:
        TimedRunner.opening += time.perf_counter() - started


async def _measure(server: ScriptedServer, tasks: int, run: int) -> tuple[float, float, float, float]:
    workspace = Path(tempfile.mkdtemp(prefix="hearth-bench-pipeline-"))
    settings = load_settings(
        {"workspace": workspace, "llm_url": server.url, "tool_mode": "native", "checkpoints": False},
        environ={},
        user_file=workspace / "none.toml",
    ).settings
    rt = await open_runtime(settings)
    store = open_pipeline_store(workspace)
    try:
        (workspace / "plans").mkdir()
        (workspace / "plans" / f"bench-{tasks}-{run}.md").write_text(f"{tasks} tasks.\n")
        runner = TimedRunner(rt, store, PipelineOptions(git=False, poll=0.01), say=lambda _: None)
        assert await runner.step()  # registered and planned: not timed
        plan = store.plans()[0]
        rows = store.tasks(plan.id)

        async def piped() -> float:
            TimedRunner.working = TimedRunner.opening = 0.0
            started = time.perf_counter()
            await runner.run(once=True)
            assert store.plan(plan.id).status == "done", store.plan(plan.id)
            return time.perf_counter() - started

        async def straight() -> float:
            started = time.perf_counter()
            for row in rows:  # the same work, with no queue
                conv = open_coder(rt, None)
                finished = await conv.send(task_message(plan, row, []))
                assert finished.status.value == "done"
                result = await review(rt, row, [], finished.final_text)
                assert result.verdict is not None
            return time.perf_counter() - started

        if run % 2:
            base = await straight()
            pipe = await piped()
        else:
            pipe = await piped()
            base = await straight()
        return pipe, base, pipe - TimedRunner.working, TimedRunner.opening
    finally:
        store.close()
        await rt.aclose()


async def main(tasks: int, runs: int) -> None:
    server = ScriptedServer().start()
    server.add(*[_answer] * (runs * (tasks * 4 + 2)))
    runner_module.review = _timed_review  # type: ignore[assignment]
    runner_module.open_coder = _timed_open  # type: ignore[assignment]
    try:
        results = [await _measure(server, tasks, run) for run in range(runs)]
    finally:
        server.stop()
    piped = statistics.median(r[0] for r in results)
    straight = statistics.median(r[1] for r in results)
    inside = statistics.median(r[2] for r in results)
    opening = statistics.median(r[3] for r in results)
    print(f"{tasks} tasks, median of {runs} runs")
    print(f"  through the pipeline      {piped * 1000:8.0f} ms  ({piped / tasks * 1000:.1f} ms per task)")
    print(
        f"  the same work, straight   {straight * 1000:8.0f} ms  ({straight / tasks * 1000:.1f} ms per task)"
    )
    print(f"  difference                {(piped - straight) / tasks * 1000:8.1f} ms per task")
    print(f"  outside the model's work  {inside / tasks * 1000:8.1f} ms per task (goal: under 50)")
    print(
        f"    of which opening the coder's session {opening / tasks * 1000:.1f} ms (a straight run pays it too)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.tasks, args.runs))
