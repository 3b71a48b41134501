"""Todos, plan steps and task state: tools, snapshots in the session, and the finish gate."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.agent.prompt import system_prompt
from hearth.agent.state import SessionState
from hearth.core.events import Notice, Status, ToolResult, WorkUpdated
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.sandbox.paths import SafePaths
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedModel, ScriptedReply
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.work import work_tools
from hearth.tools.toolset import Toolset


def fenced(name: str, **args: object) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": args}) + "\n```"


def agent_for(
    ws: Path, replies: list[ScriptedReply], store: SessionStore | None = None, session_id: str | None = None
) -> Agent:
    tools = Toolset([*file_tools(), *work_tools()])
    store = store or SessionStore(ws / ".hearth" / "s.db")
    sid = session_id or store.create(str(ws), "m")
    return Agent(
        ScriptedModel(replies),
        ModelProfile(tool_mode=ToolMode.TEXT),
        Dispatcher(tools, PermissionPolicy(PermissionMode.AUTO), RunContext(paths=SafePaths(ws))),
        store,
        sid,
        system_prompt(tools, ToolMode.TEXT),
        Limits(max_iterations=30),
        state=SessionState.replay(store.events(sid), PermissionMode.AUTO),  # the todos resumed too
    )


def outputs(agent: Agent) -> list[str]:
    return [e.output for e in agent.history if isinstance(e, ToolResult)]


def test_six_part_task_tracked_with_todos_to_the_end(workspace: Path) -> None:
    replies = [ScriptedReply(text=fenced("todo_add", text=f"part {i}")) for i in range(1, 7)]
    for i in range(1, 7):
        replies.append(ScriptedReply(text=fenced("write", path=f"part{i}.txt", content=str(i))))
        replies.append(ScriptedReply(text=fenced("todo_complete", id=i)))
    replies.append(ScriptedReply(text="All six parts written. TASK_COMPLETE"))
    agent = agent_for(workspace, replies)
    fin = asyncio.run(agent.run("write six parts"))
    assert fin.status is Status.DONE
    assert sorted(p.name for p in workspace.glob("part*.txt")) == [f"part{i}.txt" for i in range(1, 7)]
    assert "All todos are done" in outputs(agent)[-1]
    snapshots = [e for e in agent.history if isinstance(e, WorkUpdated)]
    assert len(snapshots) == 12 and not snapshots[-1].state.open_todos()


def test_finishing_early_is_refused_while_todos_remain(workspace: Path) -> None:
    agent = agent_for(
        workspace,
        [
            ScriptedReply(text=fenced("todo_add", text="write a.txt")),
            ScriptedReply(text=fenced("todo_add", text="write b.txt")),
            ScriptedReply(text=fenced("write", path="a.txt", content="a")),
            ScriptedReply(text=fenced("todo_complete", id=1)),
            ScriptedReply(text="Done! TASK_COMPLETE"),  # b.txt is still open
            ScriptedReply(text=fenced("write", path="b.txt", content="b")),
            ScriptedReply(text=fenced("todo_complete", id=2)),
            ScriptedReply(text="Now really done. TASK_COMPLETE"),
        ],
    )
    fin = asyncio.run(agent.run("two files"))
    assert fin.status is Status.DONE and (workspace / "b.txt").exists()
    refused = [e for e in agent.history if isinstance(e, Notice) and e.reason == "finish_refused"]
    assert len(refused) == 1 and "todo 2: write b.txt" in refused[0].text


def test_task_state_gate_and_a_model_that_insists_is_stopped(workspace: Path) -> None:
    agent = agent_for(
        workspace,
        [
            ScriptedReply(
                text=fenced(
                    "task_state_update",
                    objective="migrate 3 files",
                    completion_gate="all 3 migrated",
                    done_count=1,
                    total_count=3,
                    remaining=["b.py", "c.py"],
                )
            ),
            ScriptedReply(text=fenced("task_state_get")),
            *[ScriptedReply(text="Finished. TASK_COMPLETE")] * 3,
        ],
    )
    fin = asyncio.run(agent.run("migrate"))
    assert "objective: migrate 3 files" in outputs(agent)[1] and "done: 1/3" in outputs(agent)[1]
    assert fin.status is Status.LIMIT and "finish 3 times" in fin.reason


def test_work_state_survives_resume(workspace: Path) -> None:
    store = SessionStore(workspace / ".hearth" / "s.db")
    first = agent_for(
        workspace,
        [
            ScriptedReply(text=fenced("todo_add", text="remember me")),
            ScriptedReply(text="BLOCKED: need input"),
        ],
        store,
    )
    asyncio.run(first.run("start"))
    second = agent_for(
        workspace,
        [ScriptedReply(text=fenced("todo_list")), ScriptedReply(text="BLOCKED: still")],
        store,
        first.session_id,
    )
    asyncio.run(second.run("go on"))
    assert "[ ] 1. remember me" in outputs(second)[-1]


def test_plan_steps_are_tracked(workspace: Path) -> None:
    agent = agent_for(
        workspace,
        [
            ScriptedReply(text=fenced("plan_complete_step", step=1, note="did it")),
            ScriptedReply(text=fenced("plan_complete_step", step=2)),
            ScriptedReply(text="TASK_COMPLETE"),
        ],
    )
    from hearth.core.work import PlanStep, WorkState

    agent.record(WorkUpdated(state=WorkState(plan=[PlanStep(text="first"), PlanStep(text="second")])))
    assert asyncio.run(agent.run("do the plan")).status is Status.DONE
    assert outputs(agent) == [
        "Step 1 done. Next: step 2: second",
        "All plan steps are done. If the task is complete, give a short summary and TASK_COMPLETE.",
    ]
