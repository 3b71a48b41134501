"""The `reviewer` role's verdict on a task that passed the verifier: pass, or rework with reasons."""

from __future__ import annotations

import os
from dataclasses import dataclass

from hearth.core.errors import HearthError, ServerGone, ToolError
from hearth.core.text import cap_text
from hearth.core.types import Message
from hearth.llm.structured import StructuredAnswerError
from hearth.pipeline.schema import Verdict
from hearth.pipeline.store import TaskRow
from hearth.prompts import render
from hearth.runtime.api import Runtime, workspace_paths

FILE_CHARS = 4000
ALL_FILES_CHARS = 16000
REVIEWER_TRIES = 3


@dataclass(frozen=True)
class Review:
    verdict: Verdict | None  # None: no valid verdict; `error` says why
    error: str
    tokens: int


def reviewer_messages(rt: Runtime, task: TaskRow, files: list[str], summary: str) -> list[Message]:
    return [
        Message(role="system", content=render("pipeline_reviewer_system")),
        Message(
            role="user",
            content=render(
                "pipeline_reviewer_task",
                key=task.key,
                title=task.title,
                description=task.description or "(see the title)",
                summary=cap_text(summary.strip() or "(the coder said nothing)", 2000),
                contents=_contents(rt, files),
            ),
        ),
    ]


async def review(rt: Runtime, task: TaskRow, files: list[str], summary: str) -> Review:
    messages = reviewer_messages(rt, task, files, summary)
    try:
        answer = await rt.ask_json("reviewer", messages, Verdict, retries=REVIEWER_TRIES - 1)
    except StructuredAnswerError as exc:
        return Review(
            None,
            f"the reviewer's verdict did not validate after {len(exc.responses)} tries: {exc.problem}",
            exc.tokens,
        )
    except ServerGone:
        raise  # not the model's doing: the runner waits for the server and asks again
    except HearthError as exc:
        return Review(None, f"the reviewer's model failed: {exc}", 0)
    return Review(answer.value, "", answer.tokens)


def _contents(rt: Runtime, files: list[str]) -> str:
    paths = workspace_paths(rt)
    parts: list[str] = []
    left = ALL_FILES_CHARS
    for rel in files:
        try:
            real = paths.resolve(rel)
            fd = paths.open(real, os.O_RDONLY)
        except (ToolError, OSError):
            parts.append(f"--- {rel}: (missing or not readable)")
            continue
        with os.fdopen(fd, "rb") as fh:
            text = fh.read(FILE_CHARS * 4).decode("utf-8", errors="replace")
        shown = cap_text(text, min(FILE_CHARS, max(200, left)))
        left -= len(shown)
        parts.append(f"--- {rel}\n{shown}")
        if left <= 0:
            parts.append("(further files left out)")
            break
    return "\n".join(parts) or "(no files)"
