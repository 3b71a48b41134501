"""`delegate` and `decompose`: hand work to sub-agents that see only a brief.

The tools here are the model's side only (the arguments it fills in); running a sub-agent is the
runtime's job (`runtime.subagents`), handed in as a `SubAgentRunner`.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from hearth.tools.base import RunContext, Tool, ToolInput

MAX_TASKS = 8


class DelegateInput(ToolInput):
    """Hand one self-contained piece of work to a sub-agent and get its result back.

    The sub-agent sees only what you put here (not this conversation), works in its own scratch
    folder with fewer tools, and returns JSON: status (done, failed, or blocked when every call it
    made was refused), summary, artifacts (files it wrote), data, error. Give it everything it needs: the objective, exactly what to deliver, and the excerpts
    (file contents, findings) it must know.
    """

    objective: str = Field(description="What the sub-agent must achieve, in one or two sentences")
    deliverable: str = Field(description="What it must hand back: files to write, facts to report, format")
    constraints: str | None = Field(None, description="Rules it must keep (what not to touch, limits)")
    context: str | None = Field(None, description="Excerpts it needs: file contents, earlier findings")
    agent: str | None = Field(None, description="A defined agent to use, by name")
    role: str | None = Field(None, description="A role whose model to use (e.g. coder, reviewer)")


class SubTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=40, description="A short name, used in depends_on")
    objective: str
    deliverable: str
    constraints: str | None = None
    context: str | None = None
    depends_on: list[str] = Field(default_factory=list, description="Ids of tasks that must finish first")
    agent: str | None = None
    role: str | None = None


class DecomposeInput(ToolInput):
    """Split work into up to 8 sub-tasks, each done by a sub-agent, in dependency order.

    Independent tasks run at the same time. Each task's brief gets the results (summaries and
    files) of the tasks it depends on; a task whose dependency failed is not run and fails with
    the reason. You get one combined JSON result.
    """

    tasks: list[SubTask] = Field(min_length=1, max_length=MAX_TASKS)


class SubAgentRunner(Protocol):
    async def delegate(self, args: DelegateInput, ctx: RunContext) -> str: ...

    async def decompose(self, args: DecomposeInput, ctx: RunContext) -> str: ...

    def agent_names(self) -> list[tuple[str, str]]:
        """(name, description) of each defined agent."""
        ...


def agent_tools(runner: SubAgentRunner) -> list[Tool]:
    """The two tools, bound to `runner`; the defined agents are named in `delegate`'s description."""
    delegate_input: type[DelegateInput] = DelegateInput
    names = runner.agent_names()
    if names:
        listed = "\n".join(f"- {name}: {about}" for name, about in names)
        summary, _, rest = (DelegateInput.__doc__ or "").strip().partition("\n\n")
        # in the first paragraph: that is the part of a description the model is sent
        doc = f"{summary}\nDefined agents (pass as `agent`):\n{listed}\n\n{rest}"
        delegate_input = type("DelegateInput", (DelegateInput,), {"__doc__": doc})

    async def delegate(args: DelegateInput, ctx: RunContext) -> str:
        return await runner.delegate(args, ctx)

    async def decompose(args: DecomposeInput, ctx: RunContext) -> str:
        return await runner.decompose(args, ctx)

    return [
        Tool("delegate", delegate_input, delegate, aliases=("subagent", "spawn_agent")),
        Tool("decompose", DecomposeInput, decompose),
    ]
