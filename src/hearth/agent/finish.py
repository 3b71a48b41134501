"""Finish detection from the reply's structure (SPEC C2)."""

from __future__ import annotations

import re
from datetime import datetime

from hearth.core.errors import Blocked, StopRun, TaskDone, Waiting

_BLOCKED = re.compile(r"^\s*\**BLOCKED\**\s*:\s*(.+)$", re.MULTILINE)
_WAIT = re.compile(r"^\s*\**WAIT\**\s*:\s*(\S+):\s+(.+)$", re.MULTILINE)
_COMPLETE = re.compile(r"\bTASK_COMPLETE\b")


class BadWait(ValueError):
    pass


def marker_stop(text: str) -> StopRun | None:
    """The stop a reply asks for with BLOCKED:, WAIT: or TASK_COMPLETE, if any.

    Raises BadWait when a WAIT: line's time cannot be read.
    """
    m = _BLOCKED.search(text)
    if m:
        return Blocked(m.group(1).strip(), final_text=text)
    m = _WAIT.search(text)
    if m:
        try:
            when = datetime.fromisoformat(m.group(1))
        except ValueError as exc:
            raise BadWait(f"{m.group(1)!r} is not an ISO time") from exc
        if when.tzinfo is None:
            when = when.astimezone()  # a naive time is the user's local time
        return Waiting(m.group(2).strip(), when, final_text=text)
    if _COMPLETE.search(text):
        return TaskDone("the model said TASK_COMPLETE", final_text=strip_markers(text))
    return None


def final_answer(text: str) -> StopRun:
    """A reply with no tool call ends the turn: by its marker, else as the answer."""
    return marker_stop(text) or TaskDone("final answer", final_text=text)


def strip_markers(text: str) -> str:
    return _COMPLETE.sub("", text).strip()
