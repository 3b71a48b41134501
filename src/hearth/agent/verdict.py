"""The verdict asked before a turn stops on a loop or the step limit (issue 13).

A small model that is going in circles ignores notices inside its conversation: it answers with
the same call again. So the question goes out as a fresh, short conversation, with no tool
protocol in it: the task, then what this turn's calls did, and "done, or blocked?". Its answer
ends the turn as done or blocked; anything else leaves the limit standing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hearth.agent.finish import imitates_results, marker_stop
from hearth.core.errors import Blocked, StopRun, Stuck, TaskDone
from hearth.core.events import Event, ModelReply, ToolResult, UserMessage
from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render

TASK_CHARS = 600  # the task as restated
STEPS_SHOWN = 10  # the turn's latest calls shown with their results
ARGS_CHARS = 160
OUTPUT_CHARS = 240
VERDICT_TOKENS = 120  # one line is asked for


def question(history: Sequence[Event], reason: str) -> str:
    """The verdict question: the task, the turn's latest calls and what they returned."""
    task = ""
    calls: dict[str, str] = {}
    steps: list[str] = []
    for event in history:
        if isinstance(event, UserMessage):
            task, calls, steps = event.text, {}, []
        elif isinstance(event, ModelReply):
            for call in event.tool_calls:
                args = json.dumps(call.arguments, ensure_ascii=False)
                calls[call.id] = f"{call.name} {_short(args, ARGS_CHARS)}"
        elif isinstance(event, ToolResult) and event.call_id in calls:
            outcome = "" if event.ok else "failed: "
            steps.append(f"- {calls[event.call_id]} -> {outcome}{_short(event.output, OUTPUT_CHARS)}")
    shown = steps[-STEPS_SHOWN:]
    if len(steps) > len(shown):
        shown.insert(0, f"- ({len(steps) - len(shown)} earlier calls not shown)")
    return render(
        "verdict_request",
        task=_short(task, TASK_CHARS),
        steps="\n".join(shown) or "- (no tool was called)",
        reason=reason,
    )


async def ask(model: Model, text: str, temperature: float | None) -> ModelReply:
    """The model's answer, as the reply event to record (think blocks apart, no calls)."""
    request = ModelRequest(
        messages=[
            Message(role="system", content=render("verdict_system")),
            Message(role="user", content=text),
        ],
        temperature=temperature,
        max_tokens=VERDICT_TOKENS,
    )
    response = await model.complete(request)
    answer, thinking = split_thinking(response.content)
    return ModelReply(
        text=answer,
        thinking=thinking,
        finish_reason=response.finish_reason,
        model=response.model,
        usage=response.usage,
        timings=response.timings,
    )


def outcome(answer: str, stuck: Stuck) -> StopRun:
    """Done or blocked as the answer says; the limit when it says neither."""
    try:
        stop = None if imitates_results(answer) else marker_stop(answer)
    except ValueError:
        stop = None
    if isinstance(stop, Blocked):
        return Blocked(f"{stop.reason} (asked after {stuck.reason})", final_text=stop.final_text)
    if isinstance(stop, TaskDone):
        return TaskDone(f"the model said the task is complete (asked after {stuck.reason})", stop.final_text)
    return stuck


def _short(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + " …"
