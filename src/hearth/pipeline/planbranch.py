"""A branch per plan (optional, `--branch-per-plan`): a plan's phase commits go to a branch named
for it, `hearth/plan-<name>` (`-v<version>` from its second version on), made from the commit
checked out when its work starts; when the plan ends the workspace goes back to the branch it was on.

The checkout is switched, rather than the plan worked in a `git worktree` elsewhere, because the
coder works in the sandbox, which shows it the workspace only: a worktree's repository lives in
the workspace's `.git`, outside a worktree, so git would not work there. One plan holds the
checkout at a time (a row in the queue, so every runner of the project keeps to it); the others
wait their turn. Git runs through the git tools (sandboxed, hooks off): `git switch` never
overwrites a change, so a switch that would is refused and said, never forced.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hearth.core.errors import ToolError
from hearth.pipeline.store import CheckoutHold, PipelineStore, PlanRow, TaskRow
from hearth.runtime.api import (
    GitBranchInput,
    GitStatusInput,
    RunContext,
    Runtime,
    git_branch,
    git_status,
    tool_context,
    validate_ref,
)

PREFIX = "hearth/plan-"
_UNSAFE = re.compile(r"[^a-z0-9]+")


def branch_name(plan: PlanRow) -> str:
    slug = _UNSAFE.sub("-", plan.name.lower()).strip("-")[:60].strip("-") or str(plan.id)
    return validate_ref(PREFIX + slug + (f"-v{plan.version}" if plan.version > 1 else ""))


def _ctx(rt: Runtime) -> RunContext:
    return tool_context(rt)


async def current_branch(rt: Runtime) -> str | None:
    """The branch checked out; None when HEAD is detached or has no commit yet."""
    first = (await git_status(GitStatusInput(), _ctx(rt))).splitlines()[0]
    if not first.startswith("## ") or first.startswith(("## No commits yet", "## HEAD (no branch)")):
        return None
    return first[3:].split("...", 1)[0].split(" ", 1)[0]


async def switch_to(rt: Runtime, branch: str) -> None:
    """Check `branch` out, making it from HEAD if it does not exist; ToolError if git refuses."""
    listing = await git_branch(GitBranchInput(), _ctx(rt))
    names = {line[2:].strip() for line in listing.splitlines()}
    await git_branch(GitBranchInput(name=branch, create=branch not in names, switch=True), _ctx(rt))


async def go_back(rt: Runtime, branch: str) -> str:
    """Back to `branch`; "" when done, else what git said (the checkout stays where it is)."""
    try:
        await git_branch(GitBranchInput(name=branch, switch=True), _ctx(rt))
    except ToolError as exc:
        return str(exc)
    return ""


class PlanCheckout:
    """Which plan's branch is checked out, for a runner (`enabled`: a branch per plan)."""

    def __init__(self, rt: Runtime, store: PipelineStore, say: Callable[[str], None], enabled: bool) -> None:
        self.rt = rt
        self.store = store
        self.say = say
        self.enabled = enabled

    def _branching(self) -> bool:
        return self.enabled and (self.rt.workspace / ".git").exists()

    async def claim(self, owner: str, stages: tuple[str, ...] = ()) -> TaskRow | None:
        """The next ready task; while a plan holds the checkout (its branch checked out), only
        that plan's. With a branch per plan, the first task of a plan takes the checkout."""
        hold = self.store.checkout()
        task = self.store.claim_task(owner, stages=stages, plan_id=hold.plan_id if hold else None)
        if task is None or (hold is None and not self._branching()):
            return task
        try:
            if hold is None:
                hold = await self._take_checkout(task.plan_id)
                if hold is None:  # another runner's plan took it first: that plan goes first
                    self.store.release(task.id, task.stage)
                    return None
            if hold.branch and await current_branch(self.rt) != hold.branch:
                await switch_to(self.rt, hold.branch)
        except ToolError as exc:
            reason = f"its branch could not be checked out: {exc}"
            self.store.release(task.id, task.stage)
            self.store.fail_plan(task.plan_id, reason)
            self.store.drop_checkout(task.plan_id)
            self.say(f"plan #{task.plan_id} failed: {reason}")
            return None
        return task

    async def _take_checkout(self, plan_id: int) -> CheckoutHold | None:
        back = await current_branch(self.rt)
        plan = self.store.plan(plan_id)
        hold = CheckoutHold(plan_id, branch_name(plan) if back else "", back or "")
        if not self.store.take_checkout(hold):
            return None
        if hold.branch:
            self.say(
                f"plan #{plan_id}: its commits go to branch {hold.branch} (from {back}; back to it after)"
            )
        else:
            self.say(
                f"plan #{plan_id}: no branch of its own (HEAD is detached or has no commit yet);"
                " it commits on the checkout as it is"
            )
        return hold

    async def give_back(self) -> None:
        """The plan holding the checkout ended (nothing of it running): back to the user's branch."""
        hold = self.store.checkout()
        if hold is None:
            return
        plan = self.store.plan(hold.plan_id)
        if plan.status in ("new", "planning", "active"):
            return
        if any(t.status == "running" for t in self.store.tasks(plan.id)):
            return
        if not self.store.drop_checkout(plan.id) or not hold.branch:
            return
        problem = await go_back(self.rt, hold.back)
        if problem:
            self.say(
                f"plan #{plan.id}: could not go back to {hold.back}; the checkout stays on {hold.branch}: {problem}"
            )
        else:
            self.say(
                f"plan #{plan.id} {plan.status}: its work is on branch {hold.branch}; back on {hold.back}"
            )

    def commit_note(self, plan_id: int, commit: str, note: str) -> str:
        """A phase commit's note, naming the branch it went to."""
        hold = self.store.checkout()
        if commit and hold is not None and hold.plan_id == plan_id and hold.branch:
            return f"{note} on {hold.branch}"
        return note
