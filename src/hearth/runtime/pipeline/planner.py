"""A registered plan into micro-tasks, by the `planner` role (JSON checked against TaskList)."""

from __future__ import annotations

from dataclasses import dataclass

from hearth.agent.compaction import estimate_tokens
from hearth.core.errors import HearthError
from hearth.core.types import Message
from hearth.prompts import render
from hearth.runtime.pipeline.schema import TaskList
from hearth.runtime.pipeline.structured import ask_json, schema_text
from hearth.runtime.session import Runtime
from hearth.store.pipeline import NewTask, PlanRow

PLANNER_TRIES = 3


@dataclass(frozen=True)
class Planned:
    tasks: list[NewTask] | None  # None: the plan failed, `reason` says why
    reason: str
    tokens: int


def planner_messages(plan: PlanRow) -> list[Message]:
    return [
        Message(role="system", content=render("pipeline_planner_system")),
        Message(
            role="user",
            content=render(
                "pipeline_planner_task",
                name=plan.name,
                plan=plan.text,
                test=plan.test_command or "(none given)",
                schema=schema_text(TaskList),
            ),
        ),
    ]


def planner_fits(rt: Runtime, plan: PlanRow) -> tuple[int, int]:
    """(tokens the planner's request takes, the most it may take: the window less room for the reply)."""
    room = rt.profile.context_window - min(rt.profile.max_reply_tokens, rt.profile.context_window // 2)
    return estimate_tokens(planner_messages(plan)), room


async def plan_tasks(rt: Runtime, plan: PlanRow, *, tries: int = PLANNER_TRIES) -> Planned:
    tokens, room = planner_fits(rt, plan)
    if tokens > room:
        return Planned(
            None,
            f"the plan is too long for the planner: its request takes about {tokens} tokens of"
            f" {room} available in a {rt.profile.context_window}-token window; split it into smaller plans",
            0,
        )
    role = rt.role("planner")
    try:
        answer = await ask_json(rt.model_for(role), role, planner_messages(plan), TaskList, tries=tries)
    except HearthError as exc:
        return Planned(None, f"the planner's model failed: {exc}", 0)
    if answer.value is None:
        return Planned(
            None,
            f"the planner's reply did not validate after {answer.replies} tries: {answer.error}",
            answer.tokens,
        )
    tasks = [
        NewTask(
            key=t.id,
            title=t.title.strip(),
            description=t.description.strip(),
            files=tuple(dict.fromkeys(f.strip() for f in t.files)),
            depends=tuple(t.depends_on),
            phase=t.phase,
        )
        for t in answer.value.tasks
    ]
    return Planned(tasks, "", answer.tokens)
