"""A task worked by the `coder` role: a normal session through `Conversation.send`, headless
(nobody to approve: auto mode, so the sandbox is what contains it), in the project's workspace.

A first attempt opens a session; a rework continues that session with what was wrong; a task
whose runner died mid-attempt resumes its session where the events leave it.
"""

from __future__ import annotations

import dataclasses
import re

from hearth.core.events import Event, Finished, ModelReply, ToolResult
from hearth.core.protocols import Model
from hearth.pipeline.planguard import DENY_RULES
from hearth.pipeline.store import PlanRow, TaskRow
from hearth.prompts import render
from hearth.runtime.api import Conversation, PermissionMode, Runtime, open_conversation

WRITING_TOOLS = ("write", "edit")


def role_runtime(rt: Runtime, role_name: str, model: Model | None = None) -> Runtime:
    """The runtime as sessions of `role_name` see it: that role's model (or `model`, a client for
    it), sampling and tool calling as the session's main ones. Shares the store, sandbox and
    clients (never closed)."""
    role = rt.role(role_name)
    roles = dict(rt.settings.model.roles)
    if role_name in roles:
        roles["main"] = roles[role_name]
    settings = rt.settings.replace(roles=roles)
    if role_name == "coder":  # plans are the user's: a coder never writes one (see planguard)
        settings = settings.replace(deny=[*settings.permissions.deny, *DENY_RULES])
    profile = rt.profile.model_copy(update={"tool_mode": role.tool_mode})
    chosen = model or rt.model_for(role)
    return dataclasses.replace(rt, settings=settings, model=chosen, profile=profile)


def open_coder(rt: Runtime, session: str | None, model: Model | None = None) -> Conversation:
    """A coder session: `session` resumed, or a new one (`model`: the client its requests use)."""
    return open_conversation(
        role_runtime(rt, "coder", model), resume=session, permission_mode=PermissionMode.AUTO
    )


def task_message(plan: PlanRow, task: TaskRow, done: list[TaskRow]) -> str:
    return render(
        "pipeline_coder_task",
        key=task.key,
        title=task.title,
        plan=plan.name,
        description=task.description or "(see the title)",
        files=", ".join(task.files) or "(none named)",
        done="\n".join(f"- {t.key}: {t.title}" for t in done) or "(none)",
        test=plan.test_command or "(none)",
        plan_words=_plan_words(plan.text, task),
    )


PLAN_CHARS = 1500  # the most of the plan's own words a coder is given
_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+")  # a list item starts a block
_HEADING = re.compile(r"^#+\s")


def plan_excerpt(text: str, task: TaskRow) -> str:
    """What the plan itself says of this task: its paragraphs or list items that name the task's
    files ("" when none does). A small planner summarises "slugify: lowercase, `-` between
    words, stripped" into "Create slug.py with the slugify function" and the coder then guesses;
    given the whole plan instead, the 1.5B copied it into slug.py and did the other tasks too."""
    names = {f.strip() for f in task.files if f.strip()} | {
        f.rsplit("/", 1)[-1] for f in task.files if "/" in f
    }
    if not names:
        return ""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if _HEADING.match(line):
            blocks.append([])  # headings are left out; what follows one is a block of its own
        elif not line.strip() or _ITEM.match(line):
            blocks.append([line] if line.strip() else [])
        else:
            blocks[-1].append(line)
    picked = ["\n".join(b).strip() for b in blocks if any(n in "\n".join(b) for n in names)]
    excerpt = "\n".join(picked)
    return excerpt if len(excerpt) <= PLAN_CHARS else excerpt[:PLAN_CHARS] + " …"


def _plan_words(text: str, task: TaskRow) -> str:
    excerpt = plan_excerpt(text, task)
    return f"The plan's own words for this task:\n{excerpt}\n\n" if excerpt else ""


def rework_message(attempt: int, problems: str) -> str:
    return render("pipeline_coder_rework", attempt=attempt, problems=problems)


def written_files(events: list[Event]) -> list[str]:
    """Paths the session wrote or edited successfully, in order, once each."""
    calls = {c.id: c for e in events if isinstance(e, ModelReply) for c in e.tool_calls}
    found: dict[str, None] = {}
    for event in events:
        if isinstance(event, ToolResult) and event.ok and event.name in WRITING_TOOLS:
            call = calls.get(event.call_id)
            path = call.arguments.get("path") if call else None
            if isinstance(path, str) and path.strip():
                found[path.strip()] = None
    return list(found)


def final_text(events: list[Event]) -> str:
    for event in reversed(events):
        if isinstance(event, Finished):
            return event.final_text or event.reason
    return ""
