"""How a turn stopped on a loop or the step limit ends: judged from the evidence, in one place.

A small model asked afterwards, in a fresh conversation that saw only a summary, answered
BLOCKED twelve times out of twelve, finished work included. So no model is asked: what the turn
did decides. The evidence is this turn's successful changes (writes, edits, commits: any call of
a tool that changes things, other than a command run) and the checks that ran after the last of
them (shell and python runs: their exit code), and any BLOCKED the model gave with a reason.

The rules, in order:
1. Changed something, and the last change left a problem its own result names (a Python file
   that does not parse or uses undefined names): the limit stands (exit 2).
2. Changed something, and the last check run after the last change failed: the limit stands.
3. Changed something, but fewer than SETTLED calls came after the last change: the loop that
   stopped the turn was still changing things (the same line appended again and again, a file
   rewritten with 2, 3, 4 ...): the limit stands.
4. Changed something, then SETTLED calls or more that changed nothing, and the last check among
   them (if any ran) succeeded: done (exit 0). A model repeating finished work (`exit` four
   times after a run that printed the right thing; `git_status` and `git_log` in turn after a
   commit) has finished it.
5. Changed nothing, and the model said BLOCKED with a reason during the turn: blocked (exit 3).
6. Changed nothing: the limit stands (exit 2), never blocked: the task may well be doable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hearth.agent.finish import marker_stop
from hearth.agent.reply import action_stop_text
from hearth.core.errors import Blocked, StopRun, Stuck, TaskDone
from hearth.core.events import Event, ModelReply, ToolResult, UserMessage
from hearth.tools.toolset import Toolset

CHECKS = frozenset({"shell", "python"})  # running code: its exit code is evidence
SETTLED = 3  # calls after the last change that changed nothing: the work was left as it is
PROBLEM = "\nProblem: "  # the line write and edit add when a changed Python file is wrong (pycheck)


@dataclass
class Evidence:
    """What this turn did, read from its events."""

    changes: list[ToolResult] = field(default_factory=list)  # successful changing calls, in order
    checks_after: list[ToolResult] = field(default_factory=list)  # runs after the last change
    calls_after: int = 0  # calls of any kind after the last change
    blocked: str = ""  # the last reason the model gave for BLOCKED

    @classmethod
    def of(cls, history: Sequence[Event], toolset: Toolset) -> Evidence:
        start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
        found = cls()
        for event in history[start + 1 :]:
            if isinstance(event, ModelReply):
                found.blocked = _blocked_reason(event) or found.blocked
            if not isinstance(event, ToolResult):
                continue
            tool = toolset.get(event.name)
            name = tool.name if tool is not None else event.name
            found.calls_after += 1
            if name in CHECKS:
                found.checks_after.append(event)
            elif event.ok and tool is not None and not tool.read_only:
                found.changes.append(event)
                found.checks_after, found.calls_after = [], 0
        return found


def judge(history: Sequence[Event], stuck: Stuck, toolset: Toolset) -> StopRun:
    """The stop a turn stopped by `stuck` ends with (the rules are in the module's docstring)."""
    evidence = Evidence.of(history, toolset)
    if evidence.changes:
        last = evidence.changes[-1]
        if PROBLEM in last.output or evidence.calls_after < SETTLED:
            return stuck
        failed = evidence.checks_after[-1] if evidence.checks_after else None
        if failed is not None and not failed.ok:
            return stuck
        ran = " and the last check after it succeeded" if evidence.checks_after else ""
        done = "\n".join(dict.fromkeys(r.output.splitlines()[0] for r in evidence.changes if r.output))
        return TaskDone(
            f"the work is done: {len(evidence.changes)} change(s) worked{ran} (judged after {stuck.reason})",
            final_text=done,
        )
    if evidence.blocked:
        return Blocked(f"{evidence.blocked} (after {stuck.reason})", final_text=evidence.blocked)
    return stuck


def _blocked_reason(reply: ModelReply) -> str:
    reason = action_stop_text(reply)
    if reason is not None:
        return reason
    try:
        stop = marker_stop(reply.text)
    except ValueError:
        return ""
    return stop.reason if isinstance(stop, Blocked) else ""
