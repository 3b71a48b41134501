"""The loop guard, after OpenHands' stuck detector: calls going in circles, read from the events.

Patterns: the same failing call (nudge at 2, stop at 3); the same call giving
the same result (nudge at 3, stop at 4); the same error from different calls
(nudge at 3, stop at 4); two calls alternating (A B A B A B: nudge, two more: stop), or a
cycle of three or four calls (nudge at three rounds, stop at four), whatever their results;
the same file written again and again (nudge at 4, stop at 6).
A nudge names the pattern so the model can break out of it; each kind is nudged once a turn.

Nothing is kept between calls: the turn's calls and results are read from its events each time,
and which kinds were already nudged is found by going over them call by call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from hearth.core.errors import Stuck
from hearth.core.events import Event, ModelReply, ToolResult
from hearth.core.types import ToolCall
from hearth.prompts import render
from hearth.tools.toolset import Toolset

T = TypeVar("T")
STOP_AT = 3
REWRITES = frozenset({"write"})  # the same file written whole over and over is a loop too (edits are not)
REWRITE_NUDGE = 4
REWRITE_STOP = 6
MAX_PERIOD = 4


@dataclass(frozen=True)
class CallStep:
    """One call that ran, as the guard sees it."""

    key: str  # the call: name and arguments
    output: str  # its whole output (a look answered "unchanged since step N" has that step's)
    ok: bool
    path: str = ""  # for a successful write: the file written
    target: str = ""  # "write a.txt" for a file written, else ""


def call_steps(events: Sequence[Event], start: int, toolset: Toolset) -> list[CallStep]:
    """The calls that ran since `start`, in order (not the ones the loop answered without
    running them: repeats of a re-sent plan, calls past the first of a one-call reply)."""
    calls = {c.id: c for e in events[start:] if isinstance(e, ModelReply) for c in e.tool_calls}
    not_run = {render("result_unchanged"), render("error_one_call")}
    steps: list[CallStep] = []
    for event in events[start:]:
        if not isinstance(event, ToolResult) or event.call_id not in calls or event.output in not_run:
            continue
        call = calls[event.call_id]
        path = call.arguments.get("path")
        written = event.ok and call.name in REWRITES and isinstance(path, str)
        steps.append(
            CallStep(
                key=f"{call.name} {json.dumps(call.arguments, sort_keys=True)}",
                output=_whole_output(events, event, call, toolset),
                ok=event.ok,
                path=str(path) if written else "",
                target=f"{call.name} {path}" if written else "",
            )
        )
    return steps


def _seen_step(output: str) -> int | None:
    """The step a look's result points to when it was answered "unchanged since step N"."""
    before, after = render("result_seen_unchanged", step="\x00").split("\x00", 1)
    middle = output[len(before) : len(output) - len(after)] if len(output) > len(before) + len(after) else ""
    if output.startswith(before) and output.endswith(after) and middle.isdigit():
        return int(middle)
    return None


def _whole_output(events: Sequence[Event], result: ToolResult, call: ToolCall, toolset: Toolset) -> str:
    """The output a look gave, also when it was recorded as "unchanged since step N": then it
    gave what the same look at step N did (that is when the loop shortens it)."""
    step = _seen_step(result.output) if result.ok else None
    if step is None:
        return result.output
    replies = [e for e in events if isinstance(e, ModelReply)]
    if not 0 < step <= len(replies):
        return result.output
    ok = {e.call_id: e.output for e in events if isinstance(e, ToolResult) and e.ok}
    name = _canonical(toolset, call.name)
    for earlier in replies[step - 1].tool_calls:
        if (
            earlier.id in ok
            and _canonical(toolset, earlier.name) == name
            and earlier.arguments == call.arguments
        ):
            return ok[earlier.id]
    return result.output


def _canonical(toolset: Toolset, name: str) -> str:
    tool = toolset.get(name)
    return tool.name if tool is not None else name


def loop_nudge(steps: Sequence[CallStep]) -> str | Stuck | None:
    """After the last of `steps`: the pattern to name in a nudge, Stuck to stop, or None."""
    nudged: set[str] = set()
    for end in range(1, len(steps)):  # the kinds nudged after earlier calls of the turn
        found = _pattern(steps[:end])
        if isinstance(found, tuple):
            nudged.add(found[0])
    found = _pattern(steps)
    if not isinstance(found, tuple):
        return found
    return None if found[0] in nudged else found[1]


def _pattern(steps: Sequence[CallStep]) -> tuple[str, str] | Stuck | None:
    """The first pattern the calls so far end in: (its kind, its description) for a nudge, Stuck to stop."""
    last = steps[-1]
    short = last.key[:160]
    failing = _tail_run(
        steps, lambda a, b: a.key == b.key and a.output == b.output and not a.ok and a.ok == b.ok
    )
    if failing >= STOP_AT:
        return Stuck(f"the same failing call was repeated {failing} times: {short}")
    if failing == STOP_AT - 1:
        return "failing", f"the same failing call {failing} times ({short})"
    same = _tail_run(steps, lambda a, b: (a.key, a.output, a.ok) == (b.key, b.output, b.ok))
    if same >= STOP_AT + 1:
        return Stuck(f"the same call gave the same result {same} times: {short}")
    if same == STOP_AT:
        return "same", f"the same call with the same result {same} times ({short})"
    errors = _tail_run(steps, lambda a, b: not a.ok and not b.ok and a.output == b.output)
    if errors >= STOP_AT + 1:
        return Stuck(f"the same error came back {errors} times: {last.output[:160]}")
    if errors == STOP_AT:
        return "error", f"calls that all fail with the same error ({last.output[:120]})"
    return _cycle_pattern(steps)


def _cycle_pattern(steps: Sequence[CallStep]) -> tuple[str, str] | Stuck | None:
    period, run = _cycle([step.key for step in steps])
    if period == 2 and run >= 8:
        return Stuck(f"the model alternated between the same two calls {run} times")
    if period == 2 and run == 6:
        return "alternate", "two calls alternating back and forth without progress"
    if period and run >= 4 * period:
        return Stuck(f"the model repeated the same {period} calls in a cycle {run // period} times")
    if period and run == 3 * period:
        names = " -> ".join(step.key.split(" ", 1)[0] for step in steps[-period:])
        return "cycle", f"the same {period} calls over and over ({names}) without progress"
    rewrites = _tail_run([step.target for step in steps], lambda a, b: bool(a) and a == b)
    path = steps[-1].path
    if rewrites >= REWRITE_STOP:
        return Stuck(f"the model wrote {path} {rewrites} times in a row")
    if rewrites == REWRITE_NUDGE:
        return "rewrite", f"writing {path} again and again ({rewrites} times in a row)"
    return None


def _tail_run(steps: Sequence[T], same: Callable[[T, T], bool]) -> int:
    """How many of the last steps are 'the same' as the last one, counting back without a gap."""
    if not steps:
        return 0
    last = steps[-1]
    n = 0
    for step in reversed(steps):
        if not same(step, last):
            break
        n += 1
    return n


def _cycle(calls: list[str]) -> tuple[int, int]:
    """The trailing cycle of calls: its period (2 to MAX_PERIOD, the shortest that fits; 0 for
    none) and how many steps it has run, whatever their results (`write append` then `read`
    shows a longer file each round and is still a loop; so does ls, read, write the same)."""
    for period in range(2, MAX_PERIOD + 1):
        if len(calls) < 2 * period or len(set(calls[-period:])) < 2:
            continue
        n = period
        while n < len(calls) and calls[-n - 1] == calls[-n - 1 + period]:
            n += 1
        if n >= 2 * period:
            return period, n
    return 0, 0
