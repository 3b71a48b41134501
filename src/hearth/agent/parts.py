"""The changes a task asks for, one by one, shown back at a small model's first finish.

Asked for four changes to a crontab in one sentence ("move the backup to 03:45, make the report
run on weekdays only, delete the cleanup job with its comment, and add a job ..."), the 1.5B
wrote the file with the last one made and finished; nothing it could run said otherwise. At its
first finish of such a task it is shown the changes asked for as a list, with the files it
changed as they are now, and asked to make what is missing or finish again. A second finish is
taken as it is (the list is shown once per turn, and does not count as a finish sent back)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from hearth.core.events import Event, Notice, NoticeReason, UserMessage
from hearth.prompts import render

REASON = NoticeReason.FINISH_CHECKLIST
_VERBS = (
    r"add|fix|create|rename|bump|update|change|remove|delete|drop|replace|edit|implement|refactor|"
    r"append|insert|move|make|set|put|write|commit|stage|ignore|untrack|stop|sort|convert|extract|"
    r"turn|enable|disable|switch|increase|decrease|raise|lower"
)
_START = re.compile(rf"(?:(?:please|then|also)\s+)?(?:{_VERBS})\b", re.IGNORECASE)
# where one change ends and the next begins: a comma, "and" or a semicolon before a change verb
_BETWEEN = re.compile(
    rf"\s*(?:,\s*(?:and\s+)?|;\s*|\s+and\s+)(?=(?:(?:please|then|also)\s+)?(?:{_VERBS})\b)", re.IGNORECASE
)
_COMMIT = re.compile(r"(?:(?:please|then|also)\s+)?(?:commit|stage)\b", re.IGNORECASE)  # judged by git
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# Two changes are mostly a change and its test, or a change and its commit, which the finish
# review judges itself; from three, one is easily left out.
MIN_CHANGES = 3
MAX_LINES = 80  # a changed file longer than this is not shown whole
MAX_FILES = 2


def asked_changes(task: str) -> list[str]:
    """The changes the task asks for, each starting with its verb ("move the database backup to
    03:45"), in the task's order; a sentence or clause that asks none (a constraint, "Keep the
    comments") is left out, and so is a commit (the review asks git about it)."""
    parts: list[str] = []
    for sentence in _SENTENCE.split(task.strip()):
        for part in _BETWEEN.split(sentence):
            part = part.strip().rstrip(".;,")
            if _START.match(part) and not _COMMIT.match(part):
                parts.append(part)
    return parts


def shown(history: Sequence[Event]) -> bool:
    """Whether the list was shown in this turn already."""
    for event in reversed(history):
        if isinstance(event, UserMessage):
            return False
        if isinstance(event, Notice) and event.reason == REASON:
            return True
    return False


def checklist(task: str, files: Sequence[tuple[str, str]]) -> str:
    """The list of the changes the task asks for, with the files changed (name, text now); ""
    when the task asks fewer than `MIN_CHANGES`."""
    parts = asked_changes(task)
    if len(parts) < MIN_CHANGES:
        return ""
    listed = "\n".join(f"{n}. {part}" for n, part in enumerate(parts, 1))
    whole = [(name, text) for name, text in files if text.count("\n") <= MAX_LINES][:MAX_FILES]
    shown_files = "\n".join(render("workspace_named_file", name=n, content=t.rstrip("\n")) for n, t in whole)
    return render("finish_checklist", count=len(parts), parts=listed, files=shown_files)
