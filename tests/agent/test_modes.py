"""WAIT and resume, plan mode, deep-work mode."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.plan import parse_plan
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.agent.prompt import system_prompt
from hearth.core.events import BudgetSet, Compacted, Event, Notice, PlanReady, Status, WorkUpdated
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.runtime.conversation import Conversation, Decision
from hearth.sandbox.paths import SafePaths
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedModel, ScriptedReply, ScriptedServer
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.work import work_tools
from hearth.tools.toolset import Toolset
from support import HearthCli

PLAN = "Here is the plan:\n1. Create notes.txt\n2. Write the summary into it\nThat is all."


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def test_wait_then_resume_only_after_the_wake_time(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    env = {"HEARTH_LLM_URL": server.url}
    # An hour away: resuming now is refused however slow the machine is.
    later_today = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="seconds")
    server.add(ScriptedReply(text=f"WAIT: {later_today}: the build needs a while"))
    far = hearth("run", "build", "-w", str(workspace), "--json", env=env)
    assert far.code == 4, far.stdout[-600:] + far.stderr
    far_sid = far.json_lines()[0]["session"]
    listing = hearth("sessions", "-w", str(workspace), env=env)
    assert "waiting until" in listing.stdout
    early = hearth("run", "--resume", far_sid, "-w", str(workspace), "--json", env=env)
    assert early.code == 4 and "waiting until" in early.stderr
    assert len(server.requests) == 1  # refused before asking the model anything
    # A few seconds away: once that time has passed, resuming continues the task.
    wake = datetime.now(UTC) + timedelta(seconds=3)
    server.add(ScriptedReply(text=f"WAIT: {wake.isoformat(timespec='seconds')}: the build needs a moment"))
    first = hearth("run", "deploy", "-w", str(workspace), "--json", env=env)
    assert first.code == 4, first.stdout[-600:] + first.stderr
    sid = first.json_lines()[0]["session"]
    import time

    time.sleep(max(0.0, (wake - datetime.now(UTC)).total_seconds()) + 1.2)
    server.add(ScriptedReply(text="Deployed. TASK_COMPLETE"))
    later = hearth("run", "--resume", sid, "-w", str(workspace), "--json", env=env)
    assert later.code == 0
    last_user = server.requests[-1]["messages"][-1]["content"]
    assert "You were waiting until" in last_user and "Continue the task" in last_user


def test_headless_plan_prints_the_plan_and_changes_nothing(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(call("ls"), call("write", path="sneaky.txt", content="x"), ScriptedReply(text=PLAN))
    res = hearth(
        "run", "write notes", "-w", str(workspace), "--plan", "--json", env={"HEARTH_LLM_URL": server.url}
    )
    assert res.code == 0
    lines = res.json_lines()
    [plan] = [line for line in lines if line["type"] == "plan_ready"]
    assert plan["steps"] == ["Create notes.txt", "Write the summary into it"]
    assert not (workspace / "sneaky.txt").exists()
    assert "Plan mode: do not change anything" in server.requests[0]["messages"][1]["content"]


def plan_agent(ws: Path, replies: list[ScriptedReply]) -> Agent:
    tools = Toolset([*file_tools(), *work_tools()])
    store = SessionStore(ws / ".hearth" / "s.db")
    return Agent(
        ScriptedModel(replies),
        ModelProfile(tool_mode=ToolMode.NATIVE),
        Dispatcher(tools, PermissionPolicy(PermissionMode.NORMAL), RunContext(paths=SafePaths(ws))),
        store,
        store.create(str(ws), "m"),
        system_prompt(tools, ToolMode.NATIVE),
        Limits(max_iterations=20),
    )


@pytest.mark.parametrize("edit", [False, True])
def test_approved_plan_is_executed_with_step_tracking(workspace: Path, edit: bool) -> None:
    agent = plan_agent(
        workspace,
        [
            ScriptedReply(text=PLAN),
            call("write", path="notes.txt", content="summary"),
            call("plan_complete_step", step=1),
            call("plan_complete_step", step=2),
            ScriptedReply(text="Done. TASK_COMPLETE"),
        ],
    )
    seen: list[list[str]] = []

    async def approve(steps: list[str]) -> Decision:
        seen.append(steps)
        return "approve", (["Create notes.txt", "Write a summary"] if edit else steps)

    fin = asyncio.run(Conversation(agent, approve).send("write notes", plan=True))
    assert fin.status is Status.DONE and (workspace / "notes.txt").read_text() == "summary"
    assert seen == [["Create notes.txt", "Write the summary into it"]]
    plans = [e.state.plan for e in agent.history if isinstance(e, WorkUpdated)]
    assert plans[0][1].text == ("Write a summary" if edit else "Write the summary into it")
    assert all(step.done for step in plans[-1])
    assert any(isinstance(e, PlanReady) for e in agent.history)


def test_rejected_plan_changes_nothing(workspace: Path) -> None:
    agent = plan_agent(workspace, [ScriptedReply(text=PLAN)])

    async def reject(steps: list[str]) -> Decision:
        return "reject", steps

    fin = asyncio.run(Conversation(agent, reject).send("write notes", plan=True))
    assert fin.status is Status.DONE and "rejected" in fin.reason
    assert list(workspace.iterdir()) == [workspace / ".hearth"]


def test_parse_plan_reads_numbers_and_bullets() -> None:
    assert parse_plan("Plan:\n1) a\n2. b\n- c\nnot a step") == ["a", "b", "c"]


def test_deep_work_budget_warns_archives_and_stops(workspace: Path) -> None:
    replies = [call("todo_add", text="part 1")] + [
        call("write", path=f"p{i}.txt", content="x" * i) for i in range(40)
    ]
    agent = plan_agent(workspace, replies)
    agent.record(BudgetSet(tokens=30_000))  # its 10% archive band is wider than one step (~2,100 tokens)
    archived: list[int] = []

    def archive(events: list[Event]) -> str:
        archived.append(len(events))
        return ".hearth/archive/x.md"

    from hearth.agent.compaction import Compactor

    agent = dataclasses.replace(agent, archive=archive, compactor=Compactor(window=100_000))
    fin = asyncio.run(agent.run("deep task"))
    assert fin.status is Status.LIMIT and "token budget" in fin.reason
    notices = [e.text for e in agent.history if isinstance(e, Notice) and e.reason == "budget"]
    assert any("Wrap up" in n for n in notices) and any(
        "archived to .hearth/archive/x.md" in n for n in notices
    )
    assert archived and any(isinstance(e, Compacted) for e in agent.history)
    assert json.dumps(agent.model.requests[-1]).count("archived") >= 1  # type: ignore[attr-defined]
