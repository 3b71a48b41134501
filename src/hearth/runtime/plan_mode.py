"""Plan mode: a plan with read-only tools, the person's decision, then execution with step tracking."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Literal

from hearth.agent.loop import Agent
from hearth.agent.plan import parse_plan
from hearth.agent.policy import PermissionMode
from hearth.core.events import Finished, PlanReady, Status, WorkUpdated
from hearth.core.work import PlanStep
from hearth.prompts import render

Decision = tuple[Literal["approve", "reject"], list[str]]
PlanApprover = Callable[[list[str]], Awaitable[Decision]]


async def run_plan(
    agent: Agent, task: str, approve: PlanApprover | None, execute_mode: PermissionMode
) -> Finished:
    """Plan (read-only); without an approver (headless) stop there; else execute the approved plan."""
    policy = agent.dispatcher.policy
    agent.dispatcher.policy = dataclasses.replace(policy, mode=PermissionMode.PLAN)
    finished = await agent.run(render("plan_request", task=task))
    if finished.status is not Status.DONE:
        return finished
    steps = parse_plan(finished.final_text)
    if not steps:
        return _finish(agent, Status.ERROR, "the model's plan had no numbered steps")
    agent.record(PlanReady(steps=tuple(steps), text=finished.final_text))
    if approve is None:
        return finished
    decision, steps = await approve(steps)
    if decision == "reject" or not steps:
        return _finish(agent, Status.DONE, "the plan was rejected; nothing was changed")
    agent.work.plan = [PlanStep(text=s) for s in steps]
    agent.record(WorkUpdated(state=agent.work.model_copy(deep=True)))
    mode = execute_mode if execute_mode is not PermissionMode.PLAN else PermissionMode.NORMAL
    agent.dispatcher.policy = dataclasses.replace(policy, mode=mode)
    return await agent.run(render("plan_approved"))


def _finish(agent: Agent, status: Status, reason: str) -> Finished:
    finished = Finished(status=status, reason=reason)
    agent.record(finished)
    return finished
