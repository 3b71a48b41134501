"""Sub-agents: `delegate` and `decompose` against the scripted server over real HTTP,
with a real SQLite store, real files and the real sandbox backends.

The server routes each request by a marker in its first user message, so the parent's script and
each child's script interleave however the requests arrive.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hearth.agent.policy import PermissionMode
from hearth.core.events import SessionStarted, Status, ToolResult, UserMessage
from hearth.runtime.config import Settings
from hearth.runtime.conversation import open_conversation
from hearth.runtime.session import open_runtime
from hearth.store.sessions import SessionStore
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from requirements import isolating_backend
from support import state_of

PARENT_TASK = "PARENT-TASK: get the report written"


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


def done(text: str = "All done.") -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "home").mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # the user's ~/.claude/agents


@pytest.fixture
def srv() -> Iterator[ScriptedServer]:
    server = ScriptedServer().start()
    yield server
    server.stop()


def run_parent(
    ws: Path, srv: ScriptedServer, task: str = PARENT_TASK, **settings: Any
) -> tuple[Any, list[Any], Any]:
    """Run one parent turn headless; (finished, the parent's events, the runtime's store path)."""
    values: dict[str, Any] = {
        "llm_url": srv.url,
        "workspace": ws,
        "sandbox": "process",
        "permission_mode": PermissionMode.AUTO,
        "checkpoints": False,
        **settings,
    }

    async def go() -> tuple[Any, list[Any]]:
        rt = await open_runtime(Settings.from_keys(**values))
        try:
            conv = open_conversation(rt)
            finished = await conv.send(task)
            return finished, list(conv.events)
        finally:
            await rt.aclose()

    finished, events = asyncio.run(go())
    return finished, events, state_of(ws) / "sessions.db"


def tool_results(events: list[Any], name: str) -> list[ToolResult]:
    return [e for e in events if isinstance(e, ToolResult) and e.name == name]


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or []]


def first_user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


# -- delegate -----------------------------------------------------------------------------------


def test_a_child_sees_only_its_brief_and_its_result_comes_back_structured(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(
        call("read", path="notes.txt"),
        call(
            "delegate",
            objective="CHILD-1 count the words in the notes",
            deliverable="a file count.txt with the number, and the number as JSON",
            context="The notes say: alpha beta gamma",
        ),
        done("The child counted the words."),
    )

    def child_writes(body: dict[str, Any]) -> ScriptedReply:
        scratch = first_user(body).split("scratch folder is `")[1].split("`")[0]
        return call("write", path=f"{scratch}/count.txt", content="3\n")

    srv.route("CHILD-1", child_writes, done('Counted 3 words.\n```json\n{"words": 3}\n```'))
    (workspace / "notes.txt").write_text("SECRET-PARENT-HISTORY alpha beta gamma\n")
    finished, events, db = run_parent(workspace, srv)
    assert finished.status is Status.DONE, finished.reason
    assert not srv.violations

    child_requests = [b for b in srv.requests if "CHILD-1" in first_user(b)]
    first = child_requests[0]
    text = json.dumps(first["messages"])
    assert "alpha beta gamma" in text and "a file count.txt" in text  # the brief
    assert "SECRET-PARENT-HISTORY" not in text and PARENT_TASK not in text  # none of the parent's history
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert "git_commit" not in tool_names(first) and "todo_add" not in tool_names(first)  # fewer tools
    assert "shell" in tool_names(first) and "delegate" in tool_names(first)  # depth 1 of 2

    (result,) = tool_results(events, "delegate")
    assert result.ok
    got = json.loads(result.output)
    assert got["status"] == "done"
    assert got["data"] == {"words": 3}
    assert got["summary"] == "Counted 3 words."
    scratch_file = next(a for a in got["artifacts"] if a.endswith("count.txt"))
    assert scratch_file.startswith(".hearth-scratch/")
    assert (workspace / scratch_file).read_text() == "3\n"

    store = SessionStore(db)
    try:
        parent_id = next(s.id for s in store.list_sessions() if s.parent is None)
        (child_id,) = store.children(parent_id)
        assert got["session"] == child_id
        assert store.get(child_id).parent == parent_id
        child_events = store.events(child_id)
        assert isinstance(child_events[0], SessionStarted)
        brief = next(e for e in child_events if isinstance(e, UserMessage))
        assert "CHILD-1" in brief.text  # the brief is auditable in the child's own session
    finally:
        store.close()


def test_at_the_maximum_depth_the_agent_tools_are_not_offered(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(call("delegate", objective="LEVEL-1 go down", deliverable="a word"), done())
    srv.route("LEVEL-1", call("delegate", objective="LEVEL-2 go further", deliverable="a word"), done("ok"))
    srv.route("LEVEL-2", done("bottom"))
    finished, events, _ = run_parent(workspace, srv, tools_on_demand=False)
    assert finished.status is Status.DONE
    by_level = {
        level: next(b for b in srv.requests if level in first_user(b)) for level in ("LEVEL-1", "LEVEL-2")
    }
    assert "delegate" in tool_names(srv.requests[0]) and "decompose" in tool_names(srv.requests[0])
    assert "delegate" in tool_names(by_level["LEVEL-1"])
    level2 = tool_names(by_level["LEVEL-2"])
    assert level2 and "delegate" not in level2 and "decompose" not in level2
    assert json.loads(tool_results(events, "delegate")[0].output)["status"] == "done"


def test_depth_zero_offers_no_agent_tools(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(done())
    run_parent(workspace, srv, subagent_depth=0)
    assert "delegate" not in tool_names(srv.requests[0])


def test_a_child_that_hits_its_limit_fails_and_the_parent_goes_on(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(call("delegate", objective="LOOPER list forever", deliverable="nothing"), done("Parent goes on."))
    srv.route("LOOPER", *[call("ls", path=".") for _ in range(3)])
    finished, events, _ = run_parent(workspace, srv, max_iterations=3)
    assert finished.status is Status.DONE and "Parent goes on." in finished.final_text
    got = json.loads(tool_results(events, "delegate")[0].output)
    assert got["status"] == "failed"
    assert "limit" in got["error"] and "3 iterations" in got["error"]


def test_a_child_whose_server_fails_returns_a_failed_result(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(call("delegate", objective="BROKEN ask a dead model", deliverable="x"), done("Went on."))
    srv.route("BROKEN", ScriptedReply(status=401, error="bad key"))
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    got = json.loads(tool_results(events, "delegate")[0].output)
    assert got["status"] == "failed" and "bad key" in got["error"]


def test_unknown_role_and_agent_names_are_errors_the_model_reads(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(
        call("delegate", objective="X", deliverable="y", role="astronaut"),
        call("delegate", objective="X", deliverable="y", agent="nobody"),
        done(),
    )
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    role_error, agent_error = tool_results(events, "delegate")
    assert (
        not role_error.ok
        and "unknown role 'astronaut'" in role_error.output
        and "reviewer" in role_error.output
    )
    assert not agent_error.ok and "unknown agent 'nobody'" in agent_error.output
    assert len(srv.requests) == 3  # no child was started


def test_a_childs_shell_is_refused_headless_like_the_parents(workspace: Path, srv: ScriptedServer) -> None:
    """The process runner does not isolate, so every shell command asks; headless, no one can say yes."""
    srv.add(call("delegate", objective="SHELLER make a file", deliverable="made.txt"), done())
    srv.route(
        "SHELLER",
        call("shell", command="touch made.txt"),
        ScriptedReply(text="BLOCKED: no shell"),
        ScriptedReply(text="BLOCKED: no shell"),
    )
    run_parent(workspace, srv, permission_mode=PermissionMode.NORMAL)
    assert not (workspace / "made.txt").exists()
    child_shell = [b for b in srv.requests if "SHELLER" in first_user(b)][1]
    answer = next(m for m in child_shell["messages"] if m["role"] == "tool")
    assert "no one to ask" in answer["content"]


def test_a_child_whose_only_calls_were_refused_does_not_report_done(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(call("delegate", objective="REFUSED make a file", deliverable="made.txt"), done())
    srv.route(
        "REFUSED",
        call("shell", command="touch made.txt"),
        ScriptedReply(text="I made the file.\nTASK_COMPLETE"),
    )
    _, events, _ = run_parent(workspace, srv, permission_mode=PermissionMode.NORMAL)
    [delegated] = tool_results(events, "delegate")
    result = json.loads(delegated.output)
    assert result["status"] == "blocked", result
    assert "refused" in result["error"] and "shell" in result["error"]
    assert not (workspace / "made.txt").exists()


def test_a_childs_shell_runs_in_the_sandbox(workspace: Path, srv: ScriptedServer, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    srv.add(call("delegate", objective="ESCAPER write outside", deliverable="a file"), done())
    srv.route(
        "ESCAPER",
        call("shell", command=f"echo inside > in.txt; echo out > {outside}; true"),
        done("tried"),
    )
    run_parent(workspace, srv, sandbox=isolating_backend())
    assert (workspace / "in.txt").read_text() == "inside\n"  # the workspace is writable
    assert not outside.exists()  # the rest of the machine is not


def test_a_child_never_gets_a_laxer_mode_than_its_parent(workspace: Path, srv: ScriptedServer) -> None:
    agents = workspace / ".hearth" / "agents"
    agents.mkdir(parents=True)
    (agents / "wild.md").write_text(
        "---\nname: wild\ndescription: Does anything\npermissionMode: bypassPermissions\n---\nGo.\n"
    )
    srv.add(call("delegate", objective="WILD write a file", deliverable="w.txt", agent="wild"), done())
    srv.route("WILD", call("write", path="w.txt", content="x"), done("wrote"))
    run_parent(workspace, srv, permission_mode=PermissionMode.MANUAL)
    assert not (workspace / "w.txt").exists()  # manual asks; headless refuses: bypass did not widen it


def test_a_brief_larger_than_the_childs_window_is_cut_with_a_notice(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.context_window = 4096
    huge = " ".join(f"word{i}" for i in range(20000))  # varied: a repeating reply is cut
    srv.add(call("delegate", objective="BIGBRIEF read this", deliverable="ok", context=huge), done())
    srv.route("BIGBRIEF", done("ok"))
    run_parent(workspace, srv)
    child = next(b for b in srv.requests if "BIGBRIEF" in first_user(b))
    brief = first_user(child)
    assert "cut this brief" in brief
    assert len(json.dumps(child["messages"])) / 3.5 < 4096  # never sent over-long
    assert not srv.violations


def test_a_childs_tokens_count_against_the_parents_budget(workspace: Path, srv: ScriptedServer) -> None:
    heavy = {"prompt_tokens": 600, "completion_tokens": 10}
    light = {"prompt_tokens": 100, "completion_tokens": 10}
    first = call("delegate", objective="SPENDER work", deliverable="x").model_copy(update={"usage": light})
    srv.add(first, done("parent done"))
    srv.route(
        "SPENDER",
        *[
            ScriptedReply(tool_calls=[ScriptedCall(name="ls", arguments={"path": "."})], usage=heavy)
            for _ in range(5)
        ],
    )

    async def go() -> Any:
        rt = await open_runtime(
            Settings.from_keys(
                llm_url=srv.url,
                workspace=workspace,
                sandbox="process",
                permission_mode=PermissionMode.AUTO,
                checkpoints=False,
            )
        )
        try:
            conv = open_conversation(rt)
            conv.set_budget(1500)
            finished = await conv.send(PARENT_TASK)
            return finished, list(conv.events), conv.agent.budget
        finally:
            await rt.aclose()

    _finished, events, budget = asyncio.run(go())
    got = json.loads(tool_results(events, "delegate")[0].output)
    assert got["status"] == "failed" and "budget" in got["error"]
    assert budget.used >= 1500


@pytest.mark.parametrize("relative", [False, True])
def test_a_scratch_folder_planted_as_a_symlink_is_refused(
    workspace: Path, srv: ScriptedServer, tmp_path: Path, relative: bool
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / ".hearth-scratch").symlink_to("../outside" if relative else outside)
    srv.add(call("delegate", objective="PLANTED work", deliverable="x"), done("went on"))
    srv.route("PLANTED", done("should not run"))
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    (result,) = tool_results(events, "delegate")
    assert not result.ok and "outside the workspace" in result.output
    assert list(outside.iterdir()) == []  # nothing was created outside the workspace
    assert not any("PLANTED" in first_user(b) for b in srv.requests)
    store = SessionStore(state_of(workspace) / "sessions.db")
    assert len(store.list_sessions()) == 1  # no empty child session was left behind
    store.close()


def test_a_resumed_parent_still_counts_what_its_children_spent(workspace: Path, srv: ScriptedServer) -> None:
    light = {"prompt_tokens": 100, "completion_tokens": 10}
    heavy = {"prompt_tokens": 400, "completion_tokens": 10}
    first = call("delegate", objective="RESUMED-CHILD work", deliverable="x").model_copy(
        update={"usage": light}
    )
    srv.add(first, done("parent done").model_copy(update={"usage": light}))
    srv.route(
        "RESUMED-CHILD",
        call("ls", path=".").model_copy(update={"usage": heavy}),
        done("ok").model_copy(update={"usage": heavy}),
    )
    settings = Settings.from_keys(
        llm_url=srv.url,
        workspace=workspace,
        sandbox="process",
        permission_mode=PermissionMode.AUTO,
        checkpoints=False,
    )

    async def go() -> tuple[int, int]:
        rt = await open_runtime(settings)
        try:
            conv = open_conversation(rt)
            conv.set_budget(100_000)
            await conv.send(PARENT_TASK)
            live = conv.agent.budget
            assert live is not None
            again = open_conversation(rt, resume=conv.id)
            resumed = again.agent.budget
            assert resumed is not None
            return live.used, resumed.used
        finally:
            await rt.aclose()

    live, resumed = asyncio.run(go())
    assert live == 2 * 110 + 2 * 410  # the parent's two replies and the child's two
    assert resumed == live


def test_a_child_ends_when_its_parents_time_does(workspace: Path) -> None:
    """Each answer takes 1 s; the limit is 2.8 s. Alone, the child's three requests would fit its
    own 2.8 s; started 1 s into the parent's turn, it must stop at the parent's deadline."""
    server = ScriptedServer(request_delay=1.0).start()
    try:
        server.add(call("delegate", objective="SLOWCHILD work", deliverable="x"), done())
        server.route("SLOWCHILD", call("ls", path="."), call("glob", pattern="*"), done("finished in time"))
        _finished, events, _ = run_parent(workspace, server, max_seconds=2.8)
    finally:
        server.stop()
    got = json.loads(tool_results(events, "delegate")[0].output)
    assert got["status"] == "failed" and "time limit" in got["error"]
