"""One session, driven the same way from every interface.

The one-shot CLI, the REPL, the web hub and the OpenAI endpoint all open a `Conversation` and
call `send(text, plan=..., deep=..., budget=...)`; they only supply callbacks (who approves a
call, who approves a plan, where events and streamed pieces go) and read events. The session's
state (permission mode, rules allowed for the session, token budget, nested instructions already
given, todos and plan, models chosen for its roles) is derived from its events: every change
here is an event recorded, which the agent applies to its state (agent/state), so a resumed
session, from any interface, is in the state it was left in.

Plan mode switches the session to `plan` for the plan and puts the mode before it back when the
plan ends, however it ends. With no one to approve a plan (a headless run, an API client with no
one watching), the plan is the result: it is recorded and nothing is changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Literal

from hearth.agent.asked import asked_branch
from hearth.agent.done import FinishReview
from hearth.agent.loop import Agent
from hearth.agent.overview import GIT_TOOLS, missing_paths, named_contents, workspace_overview
from hearth.agent.plan import parse_plan
from hearth.agent.policy import Approver, PermissionMode
from hearth.agent.state import PLAN_APPROVED, PLAN_END, PLAN_START
from hearth.core.errors import HearthError
from hearth.core.events import (
    BudgetSet,
    Event,
    Finished,
    HearthMessage,
    ModeChanged,
    ModelChosen,
    ModelReply,
    PlanReady,
    SessionStarted,
    Status,
    UserMessage,
    WorkUpdated,
)
from hearth.core.protocols import DeltaSink
from hearth.core.work import PlanStep, WorkState
from hearth.history.continuation import continuation
from hearth.llm.profiles import ToolMode
from hearth.prompts import render
from hearth.runtime.memory_scopes import has_memory, memory_embedder, offer_memories
from hearth.runtime.session import Runtime, start_agent
from hearth.tools.base import signature

Decision = tuple[Literal["approve", "reject"], list[str]]
PlanApprover = Callable[[list[str]], Awaitable[Decision | None]]
"""Shows a plan to a person: approve (with the steps, perhaps edited) or reject; None when no
one was there to ask (then the plan is the result, as in a headless run)."""

DEFAULT_BUDGET = 200_000  # tokens, for deep work when no budget is given

Recall = Callable[[str, str], str | None]
"""(the person's message, the memories already offered in the session) -> a message offering
what memory holds that bears on it, or None."""


class Conversation:
    """A session's one way in: `send` a message (perhaps as a plan, or as deep work), change its
    mode, read what it holds. Everything it changes is recorded as an event first."""

    def __init__(
        self,
        agent: Agent,
        plan_approver: PlanApprover | None = None,
        recall: Recall | None = None,
        *,
        rt: Runtime | None = None,
    ) -> None:
        self.agent = agent
        self.plan_approver = plan_approver
        self.recall = recall
        self.rt = rt

    # -- what it is ---------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.agent.session_id

    @property
    def mode(self) -> PermissionMode:
        return self.agent.state.mode

    @property
    def models(self) -> Mapping[str, str]:
        """role -> the model the session chose for it at run time (read-only: see set_model)."""
        return MappingProxyType(self.agent.state.models)

    @property
    def events(self) -> Sequence[Event]:
        return tuple(self.agent.history)

    @property
    def work(self) -> WorkState:
        return self.agent.work

    def clear_work(self) -> int:
        """Drop every todo, plan step and task state (the person's /todo clear); how many items were open."""
        left = len(self.agent.work.unfinished())
        self.agent.record(WorkUpdated(state=WorkState()))
        return left

    @property
    def started(self) -> SessionStarted | None:
        return next((e for e in self.agent.history if isinstance(e, SessionStarted)), None)

    @property
    def system_prompt(self) -> str:
        started = self.started
        return started.system_prompt if started and started.system_prompt else self.agent.system_prompt

    def last_thinking(self) -> str:
        replies = [e for e in self.agent.history if isinstance(e, ModelReply) and e.thinking.strip()]
        return replies[-1].thinking.strip() if replies else ""

    def context_used(self) -> int:
        """Tokens the last request and reply took (what the context holds now, as the server counted)."""
        last = next((e for e in reversed(self.agent.history) if isinstance(e, ModelReply)), None)
        return last.usage.prompt_tokens + last.usage.completion_tokens if last else 0

    # -- changing it ----------------------------------------------------------------------

    def set_mode(self, mode: PermissionMode | str, reason: str = "") -> None:
        try:
            chosen = PermissionMode(mode)
        except ValueError:
            raise HearthError(f"Unknown mode {mode!r}.", "Use auto, normal, manual or plan.") from None
        if chosen is self.mode and not reason:
            return
        self.agent.record(ModeChanged(mode=chosen.value, reason=reason))

    def set_model(self, role: str, model: str) -> None:
        """Use `model` for `role` in this session from its next request on (`main`: the session's
        own model; any other role: its sub-agents, summaries, ...). Recorded as an event, so a
        resumed session keeps it."""
        if self.rt is None:
            raise HearthError("This session's models cannot be switched.")
        role, model = role.strip() or "main", model.strip()
        try:
            self.rt.role(role)
        except KeyError as exc:
            said = str(exc.args[0])
            raise HearthError(
                f"{said[:1].upper()}{said[1:]}.", "Name a known role, then the model."
            ) from None
        if not model:
            raise HearthError("Say which model to use.", "List the server's models first.")
        self.agent.record(ModelChosen(role=role, model=model))  # the agent's models read it from the state

    def model_of(self, role: str = "main") -> str:
        """The model `role` uses in this session now ("" = the server's default)."""
        if self.rt is None:
            return self.agent.model.name
        return self.rt.role(role, self.models).model

    def set_budget(self, tokens: int) -> None:
        if tokens <= 0:
            raise HearthError(
                f"A token budget of {tokens} is no budget.", "Give a positive number of tokens."
            )
        self.agent.record(BudgetSet(tokens=tokens))

    async def compact(self, reason: str) -> bool:
        return await self.agent.compact(force=True, reason=reason)

    def reload(self) -> None:
        """Take in the events something outside the agent appended to the store (the scheduler,
        a bridge), through the same `apply` as every other."""
        state = self.agent.state
        for event in self.agent.store.events(self.id)[len(state.events) :]:
            state.apply(event)

    # -- working ---------------------------------------------------------------------------

    async def send(
        self,
        text: str | None = None,
        *,
        plan: bool = False,
        deep: bool = False,
        budget: int | None = None,
        earlier: str = "",
    ) -> Finished:
        """Work on the person's message (None: go on where the session left off). `plan`: plan with
        read-only tools first, then carry the plan out once approved. `deep`: deep work, with a todo
        tree and a token budget (`budget`, else the session's, else the default). `earlier`: the
        conversation before this message in another client (a chat client's transcript)."""
        opening: list[UserMessage | HearthMessage] = []
        if earlier:
            opening.append(
                HearthMessage(reason="conversation", text=render("chat_conversation", transcript=earlier))
            )
        if text is None:
            opening.append(HearthMessage(reason="resume", text=continuation(self.agent.history)))
        else:
            if not text.strip():
                raise HearthError("The message is empty.", "Say what you want done.")
            opening.append(UserMessage(text=text))
            if self.agent.profile.small and not any(isinstance(e, UserMessage) for e in self.agent.history):
                first_look, shown = self._first_look(text)
                failing, before = await self._checks_now(text)
                first_look += failing
                first_look += "".join(
                    "\n" + render("workspace_output_now", command=c.removesuffix(" < /dev/null"), output=o)
                    for c, o in before
                )
                if first_look:
                    opening.append(
                        HearthMessage(
                            reason="files",
                            text=first_look,
                            shown=tuple(name for name, _ in shown),
                            texts=tuple(content for _, content in shown),
                            commands=tuple(c for c, _ in before),
                            outputs=tuple(o for _, o in before),
                        )
                    )
            offer = self._memories(text)
            if offer:
                opening.append(HearthMessage(reason="memories", text=offer))
        if budget is not None or (deep and self.agent.budget is None):
            self.set_budget(budget or DEFAULT_BUDGET)
        if deep:
            assert self.agent.budget is not None
            opening.append(
                HearthMessage(reason="deep", text=render("deep_work", budget=self.agent.budget.limit))
            )
        if plan:
            return await self._plan(opening)
        return await self.agent.run(*opening)

    def _first_look(self, task: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """For a small model's first task: the workspace's files, the files the task names that
        are not there (the 1.5B summarised notes.txt when the report it was asked about was
        missing), and in a git repository the git tools its short prompt leaves out (shown there,
        they made it `git init` where no one asked; left out, it could not commit where asked).
        With it, the files it shows whole, each with its text."""
        root = self.agent.dispatcher.context.workspace
        listing = workspace_overview(root)
        if not listing:
            return "", ()
        text = render("workspace_files", listing=listing)
        missing = missing_paths(root, task)
        if missing:
            text += "\n" + render("workspace_missing", names=", ".join(missing))
        named, shown = self._named_files(task)
        text += named
        if (root / ".git").exists() and self.agent.profile.tool_mode is not ToolMode.NATIVE:
            toolset = self.agent.dispatcher.toolset
            names = (*GIT_TOOLS, "git_branch") if asked_branch(task) else GIT_TOOLS
            tools = [t for t in (toolset.get(n) for n in names) if t is not None]
            lines = "\n".join(f"- {signature(t)}: {t.description.splitlines()[0]}" for t in tools)
            text += render("workspace_git", tool_list=lines)
        return text, shown

    async def _checks_now(self, task: str) -> tuple[str, list[tuple[str, str]]]:
        """What the task's checks say before any change, run through the dispatcher like the
        finish review's runs (the session's permissions and sandbox): the tests' failure when the
        task says they fail, and what each command whose output must stay as it is prints now
        (the finish compares with it)."""
        agent = self.agent
        review = FinishReview(agent.dispatcher, agent.record, agent.state)
        found = await review.failing_now(task, agent.history)
        outputs = await review.outputs_now(task, agent.history)
        return ("\n" + found if found else ""), outputs

    def _named_files(self, task: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The small files the task names, whole (agent/overview), each then counting as read:
        the read-before-write guard lets a whole-file rewrite of what the model was shown through.
        With them, their names and texts."""
        context = self.agent.dispatcher.context
        if context.known is not None:
            context.known.task = task
        shown = named_contents(context.paths, task)
        if not shown:
            return "", ()
        for _, path, _ in shown:
            if context.known is not None:
                context.known.note(context.paths, path, shown=True)
        files = "\n".join(render("workspace_named_file", name=n, content=c.rstrip("\n")) for n, _, c in shown)
        return "\n" + render("workspace_named_files", files=files), tuple((n, c) for n, _, c in shown)

    def _memories(self, text: str) -> str | None:
        """Memories for a new task: a message after the stable prefix (the system prompt never
        changes), recorded like every other, so a resumed session sends the same bytes."""
        if self.recall is None:
            return None
        shown = "\n".join(
            e.text for e in self.agent.history if isinstance(e, HearthMessage) and e.reason == "memories"
        )
        return self.recall(text, shown)

    async def _plan(self, opening: list[UserMessage | HearthMessage]) -> Finished:
        before = self.mode
        self.set_mode(PermissionMode.PLAN, PLAN_START)
        try:
            planned = await self._make_plan(opening)
            if isinstance(planned, Finished):
                return planned
            work = self.agent.work.model_copy(update={"plan": [PlanStep(text=s) for s in planned]}, deep=True)
            self.agent.record(WorkUpdated(state=work))
            self.set_mode(
                before if before is not PermissionMode.PLAN else PermissionMode.NORMAL, PLAN_APPROVED
            )
            return await self.agent.run(HearthMessage(reason="plan_approved", text=render("plan_approved")))
        finally:
            if self.mode is not before:
                self.set_mode(before, PLAN_END)

    async def _make_plan(self, opening: list[UserMessage | HearthMessage]) -> Finished | list[str]:
        """The approved steps, or how the turn ended without them."""
        finished = await self.agent.run(*opening, HearthMessage(reason="plan", text=render("plan_request")))
        if finished.status is not Status.DONE:
            return finished
        steps = parse_plan(finished.final_text)
        if not steps:
            return self._finish(Status.ERROR, "the model's plan had no numbered steps")
        self.agent.record(PlanReady(steps=tuple(steps), text=finished.final_text))
        answer = await self.plan_approver(steps) if self.plan_approver else None
        if answer is None:
            return finished  # no one to approve it: the plan is the result, nothing was changed
        decision, chosen = answer
        if decision == "reject" or not chosen:
            return self._finish(Status.DONE, "the plan was rejected; nothing was changed")
        return chosen

    def _finish(self, status: Status, reason: str) -> Finished:
        finished = Finished(status=status, reason=reason)
        self.agent.record(finished)
        return finished


def open_conversation(
    rt: Runtime,
    *,
    resume: str | None = None,
    new_id: str | None = None,
    on_event: Callable[[str, Event], None] | None = None,
    on_delta: DeltaSink | None = None,
    approver: Approver | None = None,
    plan_approver: PlanApprover | None = None,
    permission_mode: PermissionMode | None = None,
) -> Conversation:
    """A new session (named `new_id`, or a fresh id), or the one `resume` names, in the state its
    events left it; `permission_mode` is the mode to work in (default: a new session takes the
    settings', a resumed one keeps its own). No `approver`: calls that need approval are refused;
    no `plan_approver`: a plan is made and recorded, not carried out."""
    agent = start_agent(
        rt,
        resume=resume,
        new_id=new_id,
        on_event=on_event,
        on_delta=on_delta,
        approver=approver,
        permission_mode=permission_mode,
    )
    return Conversation(agent, plan_approver, _recall(rt), rt=rt)


def _recall(rt: Runtime) -> Recall | None:
    cap = rt.settings.memory.offer_tokens
    if cap <= 0:
        return None

    def recall(text: str, shown: str) -> str | None:
        if not has_memory(rt.workspace):  # no file: no model to load, nothing to offer
            return None
        return offer_memories(rt.workspace, text, shown, cap, memory_embedder(rt.settings))

    return recall
