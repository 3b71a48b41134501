"""Checks after calls ran: going in circles, and a claim of completion written next to calls."""

from __future__ import annotations

from typing import ClassVar

from hearth.agent.checks.base import Nudge, Outcome, Stage, StepView
from hearth.agent.finish import BadWait, answer_text, claims_completion, imitates_results, marker_stop
from hearth.agent.guard import call_steps, loop_nudge
from hearth.agent.turn import claims_in_a_row
from hearth.core.errors import StopRun, TaskDone, Waiting
from hearth.core.events import NoticeReason, ToolResult
from hearth.prompts import render


class Loop:
    """After each call: the turn's calls going in circles are named once, then stopped (agent/guard)."""

    name: ClassVar[str] = "loop"
    stage: ClassVar[Stage] = Stage.CALL

    def check(self, view: StepView) -> Outcome:
        steps = call_steps(view.events, view.start, view.toolset)
        if not steps:
            return None
        found = loop_nudge(steps)
        if isinstance(found, str):
            # the ways to end that this session's replies have (grammar mode: finish and blocked actions)
            done, cannot = (
                ("choose finish with a short summary now.", "choose blocked with the reason.")
                if view.grammar
                else ("reply now with a short summary and TASK_COMPLETE.", "reply BLOCKED: <reason>.")
            )
            text = render("notice_loop", pattern=found, done=done, cannot=cannot)
            return Nudge(NoticeReason.LOOP, text, goes_on=True)
        return found  # a Stuck, or None


class ClaimWithCalls:
    """A claim of completion written next to calls, the first time: the model has not seen their
    results, so it is not a finish; it is told to finish once it has (`claimed_stop` says when a
    claim counts)."""

    name: ClassVar[str] = "claim_with_calls"
    stage: ClassVar[Stage] = Stage.CALLS

    def check(self, view: StepView) -> Outcome:
        if not claims_completion(view.reply.text) or claims_in_a_row(view.events) != 1:
            return None
        return Nudge(NoticeReason.CLAIM_WITH_CALLS, render("notice_claim_with_calls"), goes_on=True)


def claimed_stop(view: StepView) -> StopRun | None:
    """A stop asked for in a reply that also called tools, once they have run.

    WAIT stands when every call worked. BLOCKED does not: the model has not seen the
    results. A completion claim is a finish only when it repeats a claim the model made
    before seeing the results of its last calls, and this reply's calls are read-only
    checks that all worked (or the model has claimed so three times in a row, all calls
    working); a reply that imitates a tool result is never a finish.
    """
    reply = view.reply
    ran = {e.call_id: e.ok for e in view.turn if isinstance(e, ToolResult)}
    all_ok = all(ran.get(c.id, False) for c in reply.tool_calls)
    read_only = all((t := view.toolset.get(c.name)) is not None and t.read_only for c in reply.tool_calls)
    try:
        stop = marker_stop(reply.text) if all_ok else None
    except BadWait:
        stop = None
    if isinstance(stop, Waiting):
        return stop
    if not claims_completion(reply.text):
        return None
    claims = claims_in_a_row(view.events)
    if all_ok and not imitates_results(reply.text) and ((claims >= 2 and read_only) or claims >= 3):
        return TaskDone("the model said the task is complete", final_text=answer_text(reply.text))
    return None
