"""Checks on a reply with no call, whose text would be the turn's answer."""

from __future__ import annotations

from typing import ClassVar

from hearth.agent.checks.base import Nudge, Outcome, Stage, StepView
from hearth.agent.finish import BadWait, final_answer
from hearth.core.errors import LimitReached
from hearth.core.events import ModelReply, NoticeReason
from hearth.prompts import render

EMPTY_STOP = 3  # empty replies in a row that end the turn


class EmptyReply:
    """An empty reply is nudged; the third in a row (no reply with calls between) ends the turn."""

    name: ClassVar[str] = "empty_reply"
    stage: ClassVar[Stage] = Stage.ANSWER

    def check(self, view: StepView) -> Outcome:
        if view.reply.text.strip():
            return None
        with_calls = [i for i in range(view.start, len(view.events)) if _has_calls(view.events[i])]
        since = with_calls[-1] if with_calls else view.start
        empty = sum(1 for i in view.notices(NoticeReason.EMPTY_REPLY) if i > since) + 1
        if empty >= EMPTY_STOP:
            return LimitReached(f"the model gave {empty} empty replies in a row")
        return Nudge(NoticeReason.EMPTY_REPLY, render("notice_empty_reply"))


def _has_calls(event: object) -> bool:
    return isinstance(event, ModelReply) and bool(event.tool_calls)


class BadWaitTime:
    """A WAIT: line whose time cannot be read: say so, so the model can write it again."""

    name: ClassVar[str] = "bad_wait"
    stage: ClassVar[Stage] = Stage.ANSWER

    def check(self, view: StepView) -> Outcome:
        try:
            final_answer(view.reply.text)
        except BadWait as exc:
            return Nudge(NoticeReason.BAD_WAIT, render("notice_bad_wait", error=str(exc)))
        return None
