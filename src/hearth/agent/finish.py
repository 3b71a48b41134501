"""Finish detection from the reply's structure.

A reply with no tool call ends the turn. A completion claim written next to tool
calls is not a finish by itself: the model has not seen those calls' results yet.
agent/checks decides when such a claim counts (`claimed_stop`); this module only
reads the text: which stop it asks for, and what of it is the model's own answer.
"""

from __future__ import annotations

import re
from datetime import datetime

from hearth.core.errors import Blocked, StopRun, TaskDone, Waiting

_BLOCKED = re.compile(r"^\s*\**BLOCKED\**\s*:\s*(.+)$", re.MULTILINE)
_WAIT = re.compile(r"^\s*\**WAIT\**\s*:\s*(\S+):\s+(.+)$", re.MULTILINE)
_COMPLETE = re.compile(r"\bTASK_COMPLETE\b")
# A completion claim in the model's own words, alone on its line, with or without markdown:
# "# Task Complete", "**Task completed.**", "The task is complete!", "Task is now complete".
_CLAIM_LINE = re.compile(
    r"^[ \t>#*_`-]*(?:the\s+)?task\s*(?:is\s+|has\s+been\s+)?(?:now\s+)?(?:complete|completed|done|finished)"
    r"[ \t.!*_`]*$",
    re.IGNORECASE | re.MULTILINE,
)
# A bare "Done." / "All done!" / "Finished." counts only as the reply's last line.
_LAST_LINE_DONE = re.compile(r"^[ \t>#*_`-]*(?:all\s+)?(?:done|finished|complete)[ \t.!*_`]*$", re.IGNORECASE)
_TASK_COMPLETE_WORDS = re.compile(r"\bTASK[ _-]COMPLETED?\b|\btask_complete\b")
# Names small models give a made-up "finish" tool: {"name": "task_complete"} means "I am done".
FINISH_NAMES = frozenset(
    {"task_complete", "complete", "finish", "done", "task_done", "complete_task", "finish_task",
     "final_answer", "attempt_completion", "submit"}
)  # fmt: skip
_FINISH_CALL = re.compile(
    r"(?:```[\w-]*\s*)?\{\s*\"name\"\s*:\s*\"(?:"
    + "|".join(sorted(FINISH_NAMES))
    + r")\"[^{}]*(?:\{[^{}]*\})?[^{}]*\}"
    r"(?:\s*```)?",
    re.IGNORECASE,
)
# Text that imitates a tool result: Hearth's own "Result of <tool>:" block, ReAct's
# "Observation:", and fenced output blocks. Each runs to the next blank line (a fence to its end).
_IMITATION_START = re.compile(
    r"^[ \t]*(?:\**\s*(?:Result of [\w.\-]+|Observation|Tool (?:result|output)|Output of [\w.\-]+)\s*\**\s*:)",
    re.IGNORECASE,
)
_OUTPUT_FENCE = re.compile(
    r"^[ \t]*```[ \t]*(?:output|result|console|stdout|observation)[ \t]*$", re.IGNORECASE
)


class BadWait(ValueError):
    pass


def marker_stop(text: str) -> StopRun | None:
    """The stop a reply asks for with BLOCKED:, WAIT: or a completion claim, if any.

    Raises BadWait when a WAIT: line's time cannot be read.
    """
    m = _BLOCKED.search(text)
    if m:
        return Blocked(m.group(1).strip(), final_text=strip_imitations(text))
    m = _WAIT.search(text)
    if m:
        try:
            when = datetime.fromisoformat(m.group(1))
        except ValueError as exc:
            raise BadWait(f"{m.group(1)!r} is not an ISO time") from exc
        if when.tzinfo is None:
            when = when.astimezone()  # a naive time is the user's local time
        return Waiting(m.group(2).strip(), when, final_text=text)
    if claims_completion(text):
        return TaskDone("the model said the task is complete", final_text=answer_text(text))
    return None


def final_answer(text: str) -> StopRun:
    """A reply with no tool call ends the turn: by its marker, else as the answer."""
    return marker_stop(text) or TaskDone("final answer", final_text=strip_imitations(text))


def answer_stop(text: str) -> StopRun | None:
    """`final_answer`, or None when the reply's WAIT: time cannot be read (the model is told so)."""
    try:
        return final_answer(text)
    except BadWait:
        return None


def claims_completion(text: str) -> bool:
    """True when the reply says the task is done: TASK_COMPLETE, or a claim line in plain words.

    Only the model's own words count: not what it wrote after imitating a tool result (small
    models echo Hearth's "Continue: ... TASK_COMPLETE" footer after a made-up result)."""
    text = before_imitation(text)
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(
        (lines and _LAST_LINE_DONE.match(lines[-1]))
        or _COMPLETE.search(text)
        or _TASK_COMPLETE_WORDS.search(text)
        or _CLAIM_LINE.search(text)
        or _FINISH_CALL.search(text)
    )


def strip_markers(text: str) -> str:
    """The text without any completion claim `claims_completion` recognises (every spelling:
    TASK_COMPLETE, "# Task Complete", a last-line "Done.", a made-up finish call), for showing
    a reply to a person: the finish itself shows as the turn's end."""
    text = _FINISH_CALL.sub("", text)
    text = _CLAIM_LINE.sub("", text)
    lines = text.rstrip().splitlines()
    if lines and _LAST_LINE_DONE.match(lines[-1]):
        text = "\n".join(lines[:-1])
    text = _TASK_COMPLETE_WORDS.sub("", _COMPLETE.sub("", text))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def answer_text(text: str) -> str:
    """What is recorded as the model's answer: no markers, no claim lines, no imitated results."""
    return strip_markers(strip_imitations(text))


def before_imitation(text: str) -> str:
    """The reply up to where it starts imitating a tool result: what follows is built on a
    result the model made up (more calls, claims), so none of it is acted on."""
    offset = 0
    for line in text.splitlines(keepends=True):
        if _IMITATION_START.match(line) or _OUTPUT_FENCE.match(line):
            return text[:offset]
        offset += len(line)
    return text


def imitates_results(text: str) -> bool:
    """True when the reply contains text written as if it were a tool's result."""
    return any(_IMITATION_START.match(line) or _OUTPUT_FENCE.match(line) for line in text.splitlines())


def strip_imitations(text: str) -> str:
    """The reply without blocks that imitate a tool result (the model cannot know a result
    before Hearth runs the call, so such text is made up)."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if _OUTPUT_FENCE.match(line):
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                i += 1
            i += 1  # the closing fence
            continue
        if _IMITATION_START.match(line):
            i += 1
            if i < len(lines) and lines[i].strip().startswith("```"):  # the result as a fenced block
                i += 1
                while i < len(lines) and not lines[i].strip().startswith("```"):
                    i += 1
                i += 1
            else:
                while i < len(lines) and lines[i].strip():
                    i += 1
                i += 1  # and the blank line that ends it
            continue
        out.append(line)
        i += 1
    return "\n".join(out).strip()
