"""A registered plan into micro-tasks, by the `planner` role (JSON checked against TaskList)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hearth.core.errors import HearthError, ServerGone
from hearth.core.types import Message
from hearth.llm.structured import StructuredAnswerError
from hearth.pipeline.schema import TaskList
from hearth.pipeline.store import NewTask, PlanRow
from hearth.prompts import render
from hearth.runtime.api import Runtime, estimate_tokens

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
            ),
        ),
    ]


def planner_fits(rt: Runtime, plan: PlanRow) -> tuple[int, int]:
    """(tokens the planner's request takes, the most it may take: the window less room for the reply).
    The request counts the schema too (ask_json adds it to the prompt, or sends it beside)."""
    room = rt.profile.context_window - min(rt.profile.max_reply_tokens, rt.profile.context_window // 2)
    schema = Message(role="user", content=json.dumps(TaskList.model_json_schema()))
    return estimate_tokens([*planner_messages(plan), schema]), room


async def plan_tasks(rt: Runtime, plan: PlanRow, *, tries: int = PLANNER_TRIES) -> Planned:
    tokens, room = planner_fits(rt, plan)
    if tokens > room:
        return Planned(
            None,
            f"the plan is too long for the planner: its request takes about {tokens} tokens of"
            f" {room} available in a {rt.profile.context_window}-token window; split it into smaller plans",
            0,
        )
    try:
        answer = await rt.ask_json("planner", planner_messages(plan), TaskList, retries=tries - 1)
    except StructuredAnswerError as exc:
        return Planned(
            None,
            f"the planner's reply did not validate after {len(exc.responses)} tries: {exc.problem}",
            exc.tokens,
        )
    except ServerGone:
        raise  # not the model's doing: the runner waits for the server and asks again
    except HearthError as exc:
        return Planned(None, f"the planner's model failed: {exc}", 0)
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
