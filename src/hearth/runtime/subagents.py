"""Sub-agents: `delegate` and `decompose`.

A child sees only a brief (objective, deliverable, constraints, the excerpts its parent chose,
and for a decomposed task the results of the tasks it depends on), works in a scratch folder of
its own inside the workspace (`.hearth-scratch/<its session id>/`) with fewer tools, and returns a
structured result (status, summary, artifacts, data, error) as the parent's tool result. Its
events are a session of their own, linked to the parent's in the store.

A child can never do more than its parent: its tools are a subset of the parent's, its calls go
through a dispatcher whose policy is the parent's (same rules, same sandbox, same approver, so
the same headless refusals), in the parent's mode or a stricter one. Budgets are shared: the
parent's token budget object is the child's, and the child's turn ends when the parent's would.
At the maximum depth the two tools are not offered at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.modes import PermissionMode
from hearth.agent.prompt import system_prompt
from hearth.agent.state import SessionState
from hearth.core.errors import ToolError
from hearth.core.events import (
    Event,
    Finished,
    ModelReply,
    PermissionDecided,
    SessionStarted,
    Status,
    ToolResult,
    UserMessage,
)
from hearth.core.protocols import Model
from hearth.core.text import cap_text
from hearth.core.types import Message
from hearth.core.work import WorkState
from hearth.llm.profiles import ModelProfile
from hearth.prompts import render
from hearth.runtime.agentdefs import AgentDefinition
from hearth.runtime.config import Settings
from hearth.runtime.roles import Role
from hearth.store.sessions import SessionStore, new_session_id
from hearth.tools.base import RunContext
from hearth.tools.builtin.agents import DecomposeInput, DelegateInput, SubTask, agent_tools
from hearth.tools.toolset import Toolset

if TYPE_CHECKING:
    from hearth.agent.policy import Approver

log = logging.getLogger(__name__)

SCRATCH = ".hearth-scratch"
# What a child may use unless its definition says otherwise (never more than its parent has).
CHILD_TOOLS = (
    "read",
    "write",
    "edit",
    "glob",
    "grep",
    "ls",
    "mkdir",
    "shell",
    "git_status",
    "git_diff",
    "git_log",
)
AGENT_TOOLS = ("delegate", "decompose")
DEFAULT_ROLE = "coder"
SUMMARY_CHARS = 600  # a result stays small: the parent sees results, not transcripts
DATA_CHARS = 400
MAX_ARTIFACTS = 20
_STRICTNESS = {
    PermissionMode.AUTO: 0,
    PermissionMode.NORMAL: 1,
    PermissionMode.MANUAL: 2,
    PermissionMode.PLAN: 3,
}
_JSON_BLOCK = re.compile(r"```json\s*\n(.*?)```", re.DOTALL)


class Runtime(Protocol):
    """What a sub-agent needs of the runtime it runs in (session.Runtime is the one): a protocol,
    so this module does not import the session's (which imports this one to offer `delegate`)."""

    settings: Settings
    store: SessionStore
    profile: ModelProfile
    server_url: str

    @property
    def workspace(self) -> Path: ...

    async def working_role(self, name: str, models: Mapping[str, str] | None = None) -> Role: ...

    def model_for(self, role: Role) -> Model: ...

    def summarizer(self, models: Mapping[str, str] | None = None) -> tuple[Model | None, dict[str, Any]]: ...


@dataclass
class SubAgents:
    """The sub-agent side of one agent (the parent): what `delegate` and `decompose` run."""

    rt: Runtime
    depth: int = 0
    approver: Approver | None = None
    definitions: dict[str, AgentDefinition] = field(default_factory=dict)

    # -- what the parent is offered -------------------------------------------------------

    @property
    def may_delegate(self) -> bool:
        return self.depth < self.rt.settings.agent.subagent_depth

    def tools(self) -> Toolset:
        """`delegate` and `decompose` bound to this parent, or none at the maximum depth."""
        return Toolset(agent_tools(self) if self.may_delegate else [])

    def agent_names(self) -> list[tuple[str, str]]:
        return [(d.name, d.description or "(no description)") for d in self.definitions.values()]

    # -- delegate ---------------------------------------------------------------------------

    async def delegate(self, args: DelegateInput, ctx: RunContext) -> str:
        return json.dumps(await self.run_child(_Brief.of(args), _parent(ctx)), ensure_ascii=False)

    async def run_child(self, brief: _Brief, parent: Agent) -> dict[str, Any]:
        """Run one child of `parent` (the agent calling) to its end; a structured result whatever
        happens (errors the parent can act on are raised as ToolError before anything runs)."""
        definition = self._definition(brief.agent)
        child = await self._child(brief, definition, parent)
        started = time.monotonic()
        try:
            finished = await child.agent.run(UserMessage(text=child.brief_text))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the child's crash is the parent's tool result, never its crash
            log.exception("sub-agent %s crashed", child.agent.session_id)
            finished = Finished(
                status=Status.ERROR, reason=f"the sub-agent crashed: {type(exc).__name__}: {exc}"
            )
        return _result(child, finished, round(time.monotonic() - started, 2))

    # -- decompose ------------------------------------------------------------------------

    async def decompose(self, args: DecomposeInput, ctx: RunContext) -> str:
        parent = _parent(ctx)
        order = _check_graph(args.tasks)
        for task in args.tasks:  # names are checked before anything runs
            self._definition(task.agent)
        limit = asyncio.Semaphore(self.rt.settings.agent.subagent_concurrency)
        done: dict[str, asyncio.Future[dict[str, Any]]] = {
            t.id: asyncio.get_running_loop().create_future() for t in args.tasks
        }

        async def run(task: SubTask) -> None:
            results = {d: await done[d] for d in task.depends_on}
            failed = [d for d, r in results.items() if r["status"] != "done"]
            if failed:
                reasons = "; ".join(f"{d}: {results[d].get('error') or results[d]['status']}" for d in failed)
                done[task.id].set_result(
                    {"status": "failed", "error": f"not run: the task(s) it depends on failed ({reasons})"}
                )
                return
            brief = _Brief.of(task, dependencies=results)
            try:
                async with limit:
                    result = await self.run_child(brief, parent)
            except ToolError as exc:
                result = {"status": "failed", "error": str(exc)}
            except Exception as exc:
                result = {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}
            done[task.id].set_result(result)

        runners = [asyncio.create_task(run(t)) for t in order]
        try:
            await asyncio.gather(*runners)
        finally:
            for runner in runners:
                runner.cancel()
        results = {t.id: done[t.id].result() for t in args.tasks}
        status = "done" if all(r["status"] == "done" for r in results.values()) else "failed"
        return json.dumps({"status": status, "tasks": results}, ensure_ascii=False)

    # -- making a child -----------------------------------------------------------------

    def _definition(self, name: str | None) -> AgentDefinition | None:
        if not name:
            return None
        if name not in self.definitions:
            known = ", ".join(sorted(self.definitions)) or "none are defined"
            raise ToolError(f"unknown agent {name!r}; defined agents: {known}")
        return self.definitions[name]

    async def _child(self, brief: _Brief, definition: AgentDefinition | None, parent: Agent) -> _Child:
        rt = self.rt
        role_name = brief.role or (definition.role if definition else "") or DEFAULT_ROLE
        models = dict(parent.state.models)  # the models the parent's session chose for its roles
        if definition and definition.model and not brief.role:
            models[role_name] = definition.model
        try:  # a role on a model of its own calls tools as a probe of that model found
            role = await rt.working_role(role_name, models)
        except KeyError as exc:
            raise ToolError(str(exc.args[0])) from None
        model = rt.model_for(role)
        parent_tools = parent.dispatcher.toolset
        wanted = definition.tools if definition and definition.tools else CHILD_TOOLS
        unknown = [t for t in wanted if parent_tools.get(t) is None and t not in AGENT_TOOLS]
        if definition and definition.tools and unknown:
            raise ToolError(
                f"the agent {definition.name!r} names tools this session does not have: {', '.join(unknown)}"
            )
        denied = set(definition.denied) if definition else set()
        keep = [t for t in wanted if t not in AGENT_TOOLS and t not in denied]
        deeper = SubAgents(rt, self.depth + 1, self.approver, self.definitions)
        agent_tools_kept = [
            t
            for t in deeper.tools()
            if (not definition or not definition.tools or t.name in wanted) and t.name not in denied
        ]
        toolset = Toolset([*parent_tools.filtered(keep), *agent_tools_kept])
        policy = parent.dispatcher.policy_in(parent.state)  # the parent's mode and session rules
        mode = policy.mode
        if (
            definition
            and definition.permission_mode
            and _STRICTNESS[definition.permission_mode] > _STRICTNESS[mode]
        ):
            mode = definition.permission_mode  # a definition may only make the mode stricter
        session_id = new_session_id()
        scratch = f"{SCRATCH}/{session_id}"
        paths = parent.dispatcher.context.paths
        # Through the tools' own resolver: a `.hearth-scratch` made a symlink (by a repository or
        # a command) is refused, never followed out of the workspace.
        paths.makedirs(paths.resolve(scratch, write=True))
        rt.store.create(
            str(rt.workspace), model.name, session_id, parent=parent.session_id, title=brief.objective
        )
        context = replace(parent.dispatcher.context, session_id=session_id, work=WorkState())
        dispatcher = Dispatcher(
            toolset, replace(policy, mode=mode), context, self.approver, parent.dispatcher.output_limit
        )
        prompt = system_prompt(toolset, role.tool_mode)
        if definition and definition.body:
            prompt += render("subagent_definition", name=definition.name, body=definition.body)
        window = parent.profile.context_window if not role.own_server else rt.profile.context_window
        summarizer = rt.summarizer(parent.state.models)
        agent = Agent(
            model=model,
            profile=ModelProfile(tool_mode=role.tool_mode, context_window=window),
            dispatcher=dispatcher,
            store=rt.store,
            session_id=session_id,
            system_prompt=prompt,
            limits=Limits(
                definition.max_turns
                if definition and definition.max_turns
                else rt.settings.agent.max_iterations,
                rt.settings.agent.max_seconds,
                rt.settings.agent.versions,
            ),
            temperature=role.temperature,
            compactor=Compactor(window=window, model=summarizer[0], sampling=summarizer[1]),
            state=SessionState(
                mode, mode, models=dict(parent.state.models), budget=parent.budget
            ),  # the budget is shared:
            # the child's tokens count against the parent's (a resumed parent counts them from the store)
            sampling=role.sampling,
            parent_deadline=parent.deadline,
            on_event=parent.on_event,  # live in the parent's stream, marked with the child's session
            tracer=parent.tracer,  # its turn's span is a child of the parent's `delegate` call
        )
        agent.record(
            SessionStarted(
                workspace=str(rt.workspace),
                model=model.name,
                server=role.server or rt.server_url,
                context_window=window,
                permission_mode=mode.value,
                tool_mode=role.tool_mode.value,
                system_prompt=prompt,
                parent=parent.session_id,
            )
        )
        text = _fit(brief, scratch, prompt, toolset, window)
        return _Child(agent, scratch, text, rt.workspace)


@dataclass(frozen=True)
class _Brief:
    objective: str
    deliverable: str
    constraints: str = ""
    context: str = ""
    agent: str | None = None
    role: str | None = None

    @classmethod
    def of(
        cls, args: DelegateInput | SubTask, dependencies: dict[str, dict[str, Any]] | None = None
    ) -> _Brief:
        context = args.context or ""
        if dependencies:
            lines = "\n".join(f"- {d}: {json.dumps(r, ensure_ascii=False)}" for d, r in dependencies.items())
            context = (context + "\n\n" if context else "") + render("subagent_dependencies", results=lines)
        return cls(args.objective, args.deliverable, args.constraints or "", context, args.agent, args.role)


@dataclass(frozen=True)
class _Child:
    agent: Agent
    scratch: str  # relative to the workspace
    brief_text: str
    workspace: Path

    def artifacts(self) -> list[str]:
        """Files in the scratch folder, and files the child wrote or edited elsewhere."""
        found: set[str] = set()
        root = self.workspace / self.scratch
        if root.is_symlink():
            return []
        for folder, _dirs, files in os.walk(root):  # symlinked folders inside are not followed
            for name in files:
                found.add(str((Path(folder) / name).relative_to(self.workspace)))
        calls = {c.id: c for e in self.agent.history if isinstance(e, ModelReply) for c in e.tool_calls}
        for event in self.agent.history:
            if isinstance(event, ToolResult) and event.ok and event.name in ("write", "edit"):
                path = calls[event.call_id].arguments.get("path") if event.call_id in calls else None
                if isinstance(path, str):
                    found.add(path)
        return sorted(found)


def _fit(brief: _Brief, scratch: str, prompt: str, toolset: Toolset, window: int) -> str:
    """The brief's text; its context cut (with a notice) when the whole would not fit half the window."""

    def text(context: str) -> str:
        return render(
            "subagent_brief",
            objective=brief.objective,
            deliverable=brief.deliverable,
            constraints=brief.constraints or "(none)",
            context=context or "(none)",
            scratch=scratch,
        )

    room = window // 2 - estimate_tokens([Message(role="system", content=prompt)], toolset.specs())
    full = text(brief.context)
    over = estimate_tokens([Message(role="user", content=full)]) - room
    if over <= 0:
        return full
    cut_chars = min(len(brief.context), int(over * 3.5) + 200)
    kept = brief.context[: len(brief.context) - cut_chars]
    shorter = text(kept + "\n" + render("subagent_brief_cut", cut=cut_chars))
    if estimate_tokens([Message(role="user", content=shorter)]) > room:  # still too long: cut hard
        shorter = cap_text(shorter, max(400, int(room * 3.5)))
    return shorter


def _result(child: _Child, finished: Finished, seconds: float) -> dict[str, Any]:
    ok = finished.status is Status.DONE
    summary = finished.final_text or _last_text(child.agent.history)
    data: Any = None
    block = _JSON_BLOCK.search(summary)
    if block:
        try:
            data = json.loads(block.group(1))
        except json.JSONDecodeError:
            data = None
        summary = (summary[: block.start()] + summary[block.end() :]).strip()
    if data is not None and len(json.dumps(data)) > DATA_CHARS:
        data = f"(too large to show: {len(json.dumps(data))} characters; ask the sub-agent to write it to a file)"
    artifacts = child.artifacts()
    result: dict[str, Any] = {
        "status": "done" if ok else "failed",
        "session": child.agent.session_id,
        "summary": _short(summary, SUMMARY_CHARS),
        "artifacts": artifacts[:MAX_ARTIFACTS]
        + ([f"(+{len(artifacts) - MAX_ARTIFACTS} more)"] if len(artifacts) > MAX_ARTIFACTS else []),
    }
    if data is not None:
        result["data"] = data
    if not ok:
        result["error"] = f"{finished.status.value}: {finished.reason}"
    refused = _only_refusals(child.agent.history)
    if ok and refused:  # it said done, but nothing it tried was allowed to run
        result["status"] = "blocked"
        result["error"] = "nothing was done: every call it made was refused (" + "; ".join(refused) + ")"
    result["seconds"] = seconds
    return result


def _only_refusals(events: list[Event]) -> list[str]:
    """The refusals, when the child's calls were all refused and none ran; else nothing."""
    refusals = [e for e in events if isinstance(e, PermissionDecided) and not e.allowed]
    ran = any(isinstance(e, ToolResult) and e.ok for e in events)
    if ran or not refusals:
        return []
    return [_short(f"{e.tool} {e.subject}".strip() + f": {e.reason}", 200) for e in refusals[:5]]


def _last_text(events: list[Event]) -> str:
    return next((e.text for e in reversed(events) if isinstance(e, ModelReply) and e.text.strip()), "")


def _short(text: str, limit: int) -> str:
    text = text.replace("TASK_COMPLETE", "").strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def children_spent(store: SessionStore, session_id: str, since: datetime) -> int:
    """Tokens (as a budget counts them) the session's sub-agents, and theirs, spent since `since`."""
    total = 0
    for child in store.children(session_id):
        usage = store.usage(since=since, session_id=child)
        total += max(0, usage.prompt_tokens - usage.cached_tokens) + usage.completion_tokens
        total += children_spent(store, child, since)
    return total


def _parent(ctx: RunContext) -> Agent:
    """The agent whose call this is (the dispatcher hands it in)."""
    if not isinstance(ctx.caller, Agent):
        raise ToolError("sub-agents are not available in this session")
    return ctx.caller


def _check_graph(tasks: list[SubTask]) -> list[SubTask]:
    """The tasks in an order where each comes after those it depends on; ToolError if impossible."""
    ids = [t.id for t in tasks]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ToolError(f"task ids must be unique; repeated: {', '.join(dupes)}")
    by_id = {t.id: t for t in tasks}
    for task in tasks:
        missing = [d for d in task.depends_on if d not in by_id]
        if missing:
            raise ToolError(f"task {task.id!r} depends on unknown task(s): {', '.join(missing)}")
        if task.id in task.depends_on:
            raise ToolError(f"task {task.id!r} depends on itself")
    order: list[SubTask] = []
    placed: set[str] = set()
    while len(order) < len(tasks):
        ready = [t for t in tasks if t.id not in placed and all(d in placed for d in t.depends_on)]
        if not ready:
            cycle = ", ".join(t.id for t in tasks if t.id not in placed)
            raise ToolError(f"the dependencies form a cycle among: {cycle}")
        order += ready
        placed.update(t.id for t in ready)
    return order
