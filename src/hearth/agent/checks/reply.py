"""Checks on the reply as it came: cut short, or a call in it that cannot be read."""

from __future__ import annotations

from typing import ClassVar

from hearth.agent.checks.base import Nudge, Outcome, Stage, StepView
from hearth.agent.guard import STOP_AT
from hearth.core.errors import Stuck
from hearth.core.events import ModelReply, Notice, NoticeReason
from hearth.llm.profiles import ModelProfile
from hearth.prompts import render

CUT = ("length", "repetition")  # finish reasons of a reply cut by the token cap, or for repeating itself
CAP_RAISES = 4  # a cap raised after cuts stops at this many times the profile's


def is_cut(reply: ModelReply) -> bool:
    return reply.finish_reason in CUT


def _mid_call(reply: ModelReply, unparsed: str | None) -> bool:
    return bool(unparsed) or any(c.error or c.repaired for c in reply.tool_calls)


def raised_cap(reply: ModelReply, unparsed: str | None, cap: int, profile: ModelProfile) -> int | None:
    """The reply cap after this reply: doubled when the cap cut it in the middle of a call (or
    while it was still thinking), up to CAP_RAISES times the profile's; None when it stays."""
    thinking_only = not reply.text.strip() and not reply.tool_calls and bool(reply.thinking)
    if reply.finish_reason != "length" or not (_mid_call(reply, unparsed) or thinking_only):
        return None
    return cap * 2 if cap < profile.max_reply_tokens * CAP_RAISES else None


class ReplyCut:
    """Tell the model when its reply was cut (by the token cap or for repeating itself), and
    that the cap went up when it was cut in the middle of a call. The step goes on: calls that
    are whole still run."""

    name: ClassVar[str] = "reply_cut"
    stage: ClassVar[Stage] = Stage.REPLY

    def check(self, view: StepView) -> Outcome:
        if not is_cut(view.reply):
            return None
        raised = render("notice_cap_raised", cap=view.cap_raised) if view.cap_raised is not None else ""
        template = (
            "notice_reply_repeating" if view.reply.finish_reason == "repetition" else "notice_reply_cut"
        )
        where = (
            ", in the middle of a tool call, so that call was not run"
            if _mid_call(view.reply, view.unparsed)
            else ""
        )
        text = " ".join(render(template, where=where, raised=raised).split())
        return Nudge(NoticeReason.REPLY_CUT, text, goes_on=True)


class UnparsedCall:
    """A call the model tried to write that could not be read: say why, and run nothing. The same
    reply again, the STOP_AT-th time in a row, stops the turn as going in circles (the loop then
    judges it from its evidence, agent/verdict): told each time what was missing, the 1.5B sent
    the same write action with no text twenty times, until the time ran out."""

    name: ClassVar[str] = "unparsed_call"
    stage: ClassVar[Stage] = Stage.REPLY

    def check(self, view: StepView) -> Outcome:
        if not view.unparsed:
            return None
        if _same_unparsed(view) >= STOP_AT:
            return Stuck(f"the same reply that could not be read came {STOP_AT} times: {view.unparsed[:160]}")
        # in grammar mode the error already says what the schema wanted
        text = view.unparsed if view.grammar else render("notice_unparsed_call", error=view.unparsed)
        return Nudge(NoticeReason.UNPARSED_CALL, text)


def _same_unparsed(view: StepView) -> int:
    """How many replies in a row, this one included, were this same reply and could not be read
    (each earlier one answered with an unparsed-call notice)."""
    count, answered = 1, False
    for event in reversed(view.turn[:-1] if view.turn and view.turn[-1] is view.reply else view.turn):
        if isinstance(event, Notice) and event.reason == NoticeReason.UNPARSED_CALL:
            answered = True
        elif isinstance(event, ModelReply):
            if not answered or event.text != view.reply.text or event.tool_calls != view.reply.tool_calls:
                break
            count, answered = count + 1, False
    return count
