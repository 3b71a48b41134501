"""One state path: a session's state changes only by an event applied to it.

Live (Agent.record) and on resume (SessionState.replay) the same `apply` runs, so for every kind
of state (mode, rules, budget, folders given their instructions, todos, carried work, window
learned, role models) the live state equals the one rebuilt from the stored events, and at every
event it is what the events so far say. A real runtime, a real SQLite store and the scripted
OpenAI-compatible server.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from hearth.agent.policy import Approval, PermissionMode
from hearth.agent.rules import Rule
from hearth.agent.state import SessionState
from hearth.core.events import Event, ModelReply, WindowLearned
from hearth.core.work import WorkState
from hearth.runtime.config import Settings
from hearth.runtime.conversation import Conversation, open_conversation
from hearth.runtime.session import open_runtime
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from runtime.test_subagents import call, done, private_config, srv
from support import ROOT

__all__ = ["private_config", "srv"]  # fixtures shared with test_subagents

SRC = ROOT / "src" / "hearth"
PLAN = "Here is the plan:\n1. Gather the data\n2. Write part 2"
OVERFLOW = ScriptedReply(status=400, error="request (9000 tokens) exceeds the available context size (6000)")


def _script(srv: ScriptedServer) -> None:
    srv.add(
        OVERFLOW,  # the server states a window: learned
        call("todo_add", text="part 1"),
        call("todo_add", text="part 2"),
        call("write", path="notes.txt", content="part 1\n"),
        call("shell", command="wc -l notes.txt"),  # asks: allowed for the session
        call("read", path="sub/data.txt"),  # sub/AGENTS.md is given once
        call("todo_complete", id=1),
        ScriptedReply(text="BLOCKED: part 2 needs data I do not have"),
        done("Answered the other question."),  # part 2 was open before: it does not hold this up
        ScriptedReply(text=PLAN),  # a plan with no one to approve it: the result
    )


async def _approve(tool: Any, arguments: dict[str, Any], reason: str) -> Approval:
    return Approval(allowed=True, remember=Rule(tool.name, arguments.get("command")))


async def _live_session(
    workspace: Path, srv: ScriptedServer, check: Any = None
) -> tuple[Conversation, Conversation]:
    """Every kind of state changed in one session, then the session resumed (same runtime)."""
    (workspace / "sub").mkdir()
    (workspace / "sub" / "AGENTS.md").write_text("Data files here are read-only.\n")
    (workspace / "sub" / "data.txt").write_text("numbers\n")
    settings = Settings.from_keys(
        llm_url=srv.url, workspace=workspace, sandbox="process", checkpoints=False, model="main-model"
    )
    rt = await open_runtime(settings)
    holder: list[Conversation] = []

    def on_event(session_id: str, event: Event) -> None:
        if check is not None and holder and session_id == holder[0].id:
            check(holder[0], event)

    try:
        conv = open_conversation(rt, approver=_approve, on_event=on_event)
        holder.append(conv)
        conv.set_budget(50_000)
        conv.set_model("reviewer", "bigger-model")
        conv.set_model("main", "main-2")
        assert (await conv.send("collect the two parts")).status.value == "blocked"
        assert (await conv.send("what is in notes.txt?")).status.value == "done"
        conv.set_mode(PermissionMode.MANUAL)
        await conv.send("plan part 2", plan=True)
        return conv, open_conversation(rt, resume=conv.id)
    finally:
        await rt.aclose()


def test_every_kind_of_state_resumes_as_it_was_live(workspace: Path, srv: ScriptedServer) -> None:
    _script(srv)
    live, resumed = asyncio.run(_live_session(workspace, srv))
    state = live.agent.state
    # each kind of state was changed, so the comparison below compares something
    assert state.mode is PermissionMode.MANUAL and state.before_plan is None
    assert state.rules == (Rule("shell", "wc -l notes.txt"),)
    assert state.budget is not None and state.budget.limit == 50_000 and state.budget.used > 0
    assert state.seen_folders == {"sub"}
    assert [(t.text, t.status) for t in state.work.todos] == [("part 1", "done"), ("part 2", "pending")]
    assert state.carried == {"todo 2: part 2"}
    assert state.window == 6000
    assert dict(state.models) == {"reviewer": "bigger-model", "main": "main-2"}
    assert srv.requests[-1]["model"] == "main-2"  # what the state says is what is used
    assert resumed.agent.state.snapshot() == state.snapshot()
    assert resumed.mode is live.mode and resumed.model_of("reviewer") == "bigger-model"


def _applied(events: list[Event], default: PermissionMode) -> dict[str, object]:
    state = SessionState.new(default)
    for event in events:
        state.apply(event)
    return state.snapshot()


def test_at_every_event_the_live_state_is_what_the_events_so_far_say(
    workspace: Path, srv: ScriptedServer
) -> None:
    """A change made beside the events (a tool changing the todos in place, a mode set on the
    dispatcher) shows here at the event after it, not only after a resume."""
    _script(srv)
    checked: list[str] = []

    def check(conv: Conversation, event: Event) -> None:
        stored = conv.agent.store.events(conv.id)
        assert conv.agent.state.snapshot() == _applied(stored, PermissionMode.NORMAL), event.kind
        checked.append(event.kind)

    asyncio.run(_live_session(workspace, srv, check))
    assert {"tool_result", "work", "rule_remembered", "mode_changed", "budget_set"} <= set(checked)
    assert {"model_chosen", "window_learned", "model_reply", "notice", "user_message"} <= set(checked)


def test_a_budget_rebuilt_from_the_events_warns_no_more_than_the_live_one() -> None:
    """The warning and the archive are read from the share the last reply crossed, so the same
    replies give the same actions live and after a resume."""
    from hearth.agent.budget import BudgetAction, TokenBudget
    from hearth.core.types import Usage

    live = TokenBudget(1000)
    actions = [live.spend(Usage(prompt_tokens=n, completion_tokens=0)) for n in (500, 450, 20, 10, 30)]
    assert actions == [
        BudgetAction.NONE,
        BudgetAction.ARCHIVE,  # 50% -> 95%: the archive, and no warning after it
        BudgetAction.NONE,
        BudgetAction.NONE,
        BudgetAction.STOP,
    ]
    assert TokenBudget.resumed(1000, 950) == TokenBudget(1000, used=950)


def test_a_plan_left_running_gives_its_mode_back_on_resume_only() -> None:
    from hearth.core.events import ModeChanged, SessionStarted

    events: list[Event] = [
        SessionStarted(workspace="/w", model="m", server="", context_window=4096, permission_mode="auto"),
        ModeChanged(mode="plan", reason="plan"),
    ]
    live = SessionState.new(PermissionMode.NORMAL)
    for event in events:
        live.apply(event)
    assert live.mode is PermissionMode.PLAN and live.before_plan is PermissionMode.AUTO
    assert SessionState.replay(events, PermissionMode.NORMAL).mode is PermissionMode.AUTO


def test_window_learned_reaches_the_compactor_through_the_event(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(OVERFLOW, done())

    async def go() -> tuple[int, bool, list[Event]]:
        settings = Settings.from_keys(
            llm_url=srv.url, workspace=workspace, sandbox="process", checkpoints=False
        )
        rt = await open_runtime(settings)
        try:
            conv = open_conversation(rt)
            await conv.send("hello")
            compactor = conv.agent.compactor
            assert compactor is not None
            return compactor.window, compactor.known, list(conv.events)
        finally:
            await rt.aclose()

    window, known, events = asyncio.run(go())
    assert (window, known) == (6000, True)
    assert [e.window for e in events if isinstance(e, WindowLearned)] == [6000]
    assert sum(isinstance(e, ModelReply) for e in events) == 1


# -- nothing changes state beside the events ----------------------------------------------------

MUTATORS = {"append", "extend", "clear", "update", "add", "pop", "remove"}
STATE_FIELDS = {f.name for f in dataclasses.fields(SessionState)} | {"history", "budget", "carried"}


def _holder(node: ast.expr) -> str:
    """The name the attribute hangs on (`self.agent.state.mode` -> `state`)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _state_writes(tree: ast.AST) -> list[str]:
    """Assignments to a session state's fields, or to an agent's or dispatcher's mutable parts."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
        ):
            targets = [node.func.value]
        targets = [
            t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])
        ]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if not isinstance(target, ast.Attribute):
                continue
            holder = _holder(target.value)
            if (
                (holder in {"state", "agent"} and target.attr in STATE_FIELDS)
                or (holder == "dispatcher" and target.attr == "policy")
                or (holder in {"agent", "compactor"} and target.attr in {"model", "compactor", "sampling"})
            ):
                found.append(f"line {target.lineno}: {ast.unparse(target)}")
    return found


@pytest.mark.parametrize(
    "bad",
    [
        "self.agent.budget = TokenBudget(5)",
        "agent.dispatcher.policy = p",
        "self.agent.history[:] = events",
        "conv.agent.state.models['main'] = 'x'",
        "agent.state.events.append(e)",
        "self.agent.model = other",
        "self.agent.compactor.model, x = summarizer, 1",
    ],
)
def test_the_check_catches_a_change_beside_the_events(bad: str) -> None:
    assert _state_writes(ast.parse(bad))


def test_no_module_changes_a_sessions_state_but_by_applying_an_event() -> None:
    problems = {}
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "agent" / "state.py":
            continue  # apply itself
        found = _state_writes(ast.parse(path.read_text()))
        if found:
            problems[str(path.relative_to(SRC))] = found
    assert problems == {}


def test_an_agent_is_frozen_configuration(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(done())

    async def go() -> None:
        settings = Settings.from_keys(
            llm_url=srv.url, workspace=workspace, sandbox="process", checkpoints=False
        )
        rt = await open_runtime(settings)
        try:
            agent = open_conversation(rt).agent
            with pytest.raises(dataclasses.FrozenInstanceError):
                agent.model = rt.model  # type: ignore[misc]
            with pytest.raises(dataclasses.FrozenInstanceError):
                agent.state = SessionState.new(PermissionMode.AUTO)  # type: ignore[misc]
            assert agent.work == WorkState()
        finally:
            await rt.aclose()

    asyncio.run(go())
