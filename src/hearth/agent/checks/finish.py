"""Checks on a stop the reply asks for (a finish, BLOCKED, WAIT): each may push it back once.

A nudge here refuses the stop (the model is told why, and the turn goes on); a stop returned
ends the turn instead of the one asked for; nothing from every check lets the asked stop stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hearth.agent import verdict
from hearth.agent.checks.base import Nudge, Outcome, Stage, StepView
from hearth.agent.named_files import split_present
from hearth.agent.remedy import remedy
from hearth.agent.turn import last_result, not_run_before, stopped_after_a_call, tried_a_tool
from hearth.core.errors import Blocked, LimitReached, TaskDone
from hearth.core.events import Event, Notice, NoticeReason, ToolResult, UserMessage
from hearth.llm.client import STOPPED_AFTER_CALL
from hearth.prompts import render
from hearth.tools.toolset import Toolset

REFUSED_STOP = 3  # finishes refused over open work that end the turn
# git commit with nothing staged exits 1: the 1.5B, asked to undo its last commit, ran it over and
# over, and each finish was pushed back to fix it, never reaching the review that names the reset
NOTHING_TO_COMMIT = "nothing to commit, working tree clean"


class BlockedEarly:
    """A BLOCKED before any tool was tried in this turn is pushed back once (twice, naming them,
    when files the task mentions are in the workspace): weak models reach for it at the first
    difficulty."""

    name: ClassVar[str] = "blocked_early"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, Blocked) or tried_a_tool(view.events):
            return None
        task = next((e.text for e in reversed(view.events) if isinstance(e, UserMessage)), "")
        present = split_present(view.workspace, task)[0]
        if len(view.notices(NoticeReason.BLOCKED_EARLY)) >= (2 if present else 1):
            return None
        there = " " + render("notice_blocked_named", names=", ".join(present)) if present else ""
        return Nudge(NoticeReason.BLOCKED_EARLY, render("notice_blocked_early", there=there))


class BlockedAfterError:
    """A BLOCKED right after an error whose message names a remedy is pushed back once per
    error, with that remedy. A BLOCKED after that stands."""

    name: ClassVar[str] = "blocked_after_error"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, Blocked):
            return None
        failed = last_result(view.events)
        if failed is None or failed.ok or failed.output.startswith("Denied:"):
            return None  # a refused call is the policy's answer, not a mistake to fix
        advice = remedy(failed.output)
        if not advice:
            return None
        answered = [last_result(view.events[:i]) for i in view.notices(NoticeReason.BLOCKED_AFTER_ERROR)]
        if failed.output in {r.output for r in answered if r is not None}:
            return None
        return Nudge(NoticeReason.BLOCKED_AFTER_ERROR, render("notice_blocked_after_error", remedy=advice))


class CallsNotRun:
    """A finish right after calls that were never run (one call per reply): their work was not done."""

    name: ClassVar[str] = "calls_not_run"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, TaskDone):
            return None
        skipped = not_run_before(view.events, render("error_one_call"))
        if not skipped:
            return None
        return Nudge(NoticeReason.CALLS_NOT_RUN, render("notice_calls_not_run", calls=", ".join(skipped)))


class ReplyStopped:
    """A finish right after a reply the server stopped at its first call (one call per reply) is
    pushed back once a turn: what the model wrote after that call was never seen."""

    name: ClassVar[str] = "reply_stopped"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, TaskDone) or not stopped_after_a_call(view.events, STOPPED_AFTER_CALL):
            return None
        text = render("notice_reply_stopped")
        if any(_text(view.events[i]) == text for i in view.notices(NoticeReason.CALLS_NOT_RUN)):
            return None
        return Nudge(NoticeReason.CALLS_NOT_RUN, text)


def _text(event: object) -> str:
    return event.text if isinstance(event, Notice) else ""


class FinishedOverFailure(LimitReached):
    """The model finished again over the same failing check: not done (exit 2), unless a version
    of its file makes the checks pass (agent/versions)."""


class FinishAfterFailure:
    """A finish right after a check that failed (the last shell or python run, with nothing
    changed since) is pushed back once per failure; finishing again over the same failure
    ends the turn as not done (exit 2): the evidence says the work does not work."""

    name: ClassVar[str] = "finish_after_failure"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, TaskDone):
            return None
        failed = _failed_check(view.events, view.toolset)
        if failed is None:
            return None
        notices = view.notices(NoticeReason.FINISH_AFTER_FAILURE)
        pushed = [_failed_check(view.events[:i], view.toolset) for i in notices]
        if failed.output in {r.output for r in pushed if r is not None}:
            return FinishedOverFailure(
                f"the model finished, but its last {failed.name} run failed and nothing changed since"
            )
        tail = "\n".join(failed.output.strip().splitlines()[-6:])[-600:]
        return Nudge(
            NoticeReason.FINISH_AFTER_FAILURE,
            render("notice_finish_after_failure", tool=failed.name, output=tail),
        )


def _failed_check(events: Sequence[Event], toolset: Toolset) -> ToolResult | None:
    """The last check run after the last change (agent/verdict), when it failed."""
    evidence = verdict.Evidence.of(events, toolset)
    failed = evidence.checks_after[-1] if evidence.checks_after else None
    if failed is None or failed.ok or failed.output.startswith("Denied:"):
        return None  # a refused run is the policy's answer, not the work failing
    if NOTHING_TO_COMMIT in failed.output:
        return None  # git's no-op: nothing failed (the finish review judges the commits asked)
    return failed


class FinishRefused:
    """A finish is refused (the model is told what is open) while tracked work remains; the
    third refusal in a turn ends it."""

    name: ClassVar[str] = "finish_refused"
    stage: ClassVar[Stage] = Stage.FINISH

    def check(self, view: StepView) -> Outcome:
        if not isinstance(view.stop, TaskDone):
            return None
        open_items = [item for item in view.work.unfinished() if item not in view.carried]
        if not open_items:
            return None
        refused = len(view.notices(NoticeReason.FINISH_REFUSED)) + 1
        if refused >= REFUSED_STOP:
            return LimitReached(
                f"the model tried to finish {refused} times with {len(open_items)} item(s) still open"
            )
        items = "\n".join(f"- {item}" for item in open_items[:20])
        return Nudge(NoticeReason.FINISH_REFUSED, render("notice_finish_refused", items=items))
