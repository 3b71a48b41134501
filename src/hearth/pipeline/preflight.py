"""Before running a plan: does each of its tasks fit the coder's context window?

A task's opening (the coder's system prompt with its tools, and the task's message) must leave
at least half the window for the work (files read, command output, replies); the plan itself
must fit the planner's. The plan is registered and planned if it was not yet (its tasks are the
ones the run will work).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.core.types import Message
from hearth.pipeline.coder import task_message
from hearth.pipeline.planner import planner_fits
from hearth.pipeline.plans import read_plan
from hearth.pipeline.runner import Runner
from hearth.pipeline.store import PipelineStore, PlanRow
from hearth.runtime.api import Runtime, estimate_tokens, session_prompt

OPENING_SHARE = 0.5  # of the window, at most, for a task's opening


@dataclass(frozen=True)
class Fit:
    key: str
    title: str
    tokens: int
    window: int
    limit: int = 0  # the most it may take (0: the share of the window a task's opening may take)

    @property
    def fits(self) -> bool:
        return self.tokens <= (self.limit or self.window * OPENING_SHARE)


@dataclass(frozen=True)
class Preflight:
    plan: PlanRow
    planner: Fit
    tasks: list[Fit]

    @property
    def ok(self) -> bool:
        return self.plan.status != "failed" and self.planner.fits and all(t.fits for t in self.tasks)


async def preflight(rt: Runtime, store: PipelineStore, path: Path) -> Preflight:
    if path.is_absolute():
        if not path.resolve().is_relative_to(rt.workspace):
            raise HearthError(
                f"The plan {path} is not in the workspace {rt.workspace}.",
                "Put it in the workspace's plans/ folder, or pass --workspace.",
            )
        rel = path.resolve().relative_to(rt.workspace)
    else:
        rel = path
    plan_file = read_plan(rt.workspace, rel)
    if plan_file.problem:
        raise HearthError(f"The plan {plan_file.path} cannot be run: {plan_file.problem}.", "Fix the file.")
    plan = store.register(
        plan_file.path, plan_file.name, plan_file.digest, plan_file.text, plan_file.test_command
    )
    plan = plan or store.by_hash(plan_file.digest)
    assert plan is not None
    window = rt.profile.context_window
    tokens, room = planner_fits(rt, plan)
    planner_fit = Fit("plan", plan.name, tokens, window, room)
    runner = Runner(rt, store)
    if plan.status == "new" and planner_fit.fits and (claimed := store.claim_plan(runner.owner, plan.id)):
        await runner.plan_one(claimed)
    plan = store.plan(plan.id)
    role = rt.role("coder")
    prompt = session_prompt(rt, role.tool_mode)
    specs = rt.toolset.specs()
    fits = []
    for task in store.tasks(plan.id):
        messages = [
            Message(role="system", content=prompt),
            Message(role="user", content=task_message(plan, task, [])),
        ]
        fits.append(Fit(task.key, task.title, estimate_tokens(messages, specs), window))
    return Preflight(plan, planner_fit, fits)
