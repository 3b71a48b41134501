"""The verdict asked before a turn stops on a loop or the step limit.

A small model that is going in circles ignores notices inside its conversation: it answers with
the same call again. So the question goes out as a fresh, short conversation, with no tool
protocol in it: the task, then what this turn's calls did, and "done, or blocked?". Its answer
ends the turn as done or blocked; anything else leaves the limit standing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hearth.agent.finish import imitates_results, marker_stop
from hearth.agent.tracing import NO_TRACING, Tracer
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


def question(history: Sequence[Event]) -> str:
    """The verdict question: the task, and what this turn's calls did, in order, each distinct
    call and result once (a loop's repeats counted, not listed: the early work stays in view).
    Why the turn was stopped is not said: told "it went in circles", the 1.5B answered BLOCKED
    of work it had done."""
    task = ""
    calls: dict[str, str] = {}
    steps: dict[str, int] = {}
    for event in history:
        if isinstance(event, UserMessage):
            task, calls, steps = event.text, {}, {}
        elif isinstance(event, ModelReply):
            for call in event.tool_calls:
                args = json.dumps(call.arguments, ensure_ascii=False)
                calls[call.id] = f"{call.name} {_short(args, ARGS_CHARS)}"
        elif isinstance(event, ToolResult) and event.call_id in calls:
            outcome = "" if event.ok else "failed: "
            line = f"- {calls[event.call_id]} -> {outcome}{_short(event.output, OUTPUT_CHARS)}"
            steps[line] = steps.get(line, 0) + 1
    lines = [line if n == 1 else f"{line} ({n} times)" for line, n in steps.items()]
    shown = lines[-STEPS_SHOWN:]
    if len(lines) > len(shown):
        shown.insert(0, f"- ({len(lines) - len(shown)} earlier calls not shown)")
    return render(
        "verdict_request", task=_short(task, TASK_CHARS), steps="\n".join(shown) or "- (no tool was called)"
    )


async def ask(model: Model, text: str, temperature: float | None, tracer: Tracer = NO_TRACING) -> ModelReply:
    """The model's answer, as the reply event to record (think blocks apart, no calls)."""
    request = ModelRequest(
        messages=[
            Message(role="system", content=render("verdict_system")),
            Message(role="user", content=text),
        ],
        temperature=temperature,
        max_tokens=VERDICT_TOKENS,
    )
    with tracer.model_request(model.name, request) as span:  # a span of the agent's turn
        response = await model.complete(request)
        span.outcome(response)
    answer, thinking = split_thinking(response.content)
    return ModelReply(
        text=answer,
        thinking=thinking,
        finish_reason=response.finish_reason,
        model=response.model,
        usage=response.usage,
        timings=response.timings,
    )


def changed_something(history: Sequence[Event], writes: set[str]) -> bool:
    """Whether a call of a tool that changes things worked in this turn."""
    worked: set[str] = set()
    for event in reversed(history):
        if isinstance(event, UserMessage):
            break
        if isinstance(event, ToolResult) and event.ok and event.name in writes:
            worked.add(event.call_id)
    return bool(worked)


def outcome(answer: str, stuck: Stuck, *, changed: bool) -> StopRun:
    """Done or blocked as the answer says; the limit when it says neither. A BLOCKED after the
    turn changed something is not believed: "it cannot be done" comes before doing, and a small
    model says BLOCKED of work it did (a commit made, then `git status` clean)."""
    try:
        stop = None if imitates_results(answer) else marker_stop(answer)
    except ValueError:
        stop = None
    if isinstance(stop, Blocked) and not changed:
        return Blocked(f"{stop.reason} (asked after {stuck.reason})", final_text=stop.final_text)
    if isinstance(stop, TaskDone):
        return TaskDone(f"the model said the task is complete (asked after {stuck.reason})", stop.final_text)
    return stuck


def _short(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + " …"
