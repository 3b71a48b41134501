"""`decompose` and agent definitions, against the scripted server over real HTTP."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from hearth.core.events import Status
from hearth.runtime.agentdefs import load_definitions, parse_definition
from hearth.store.sessions import SessionStore
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from runtime.test_subagents import (
    call,
    done,
    first_user,
    private_config,
    run_parent,
    srv,
    tool_names,
    tool_results,
)

__all__ = ["private_config", "srv"]  # fixtures shared with test_subagents


def scratch_of(body: dict[str, Any]) -> str:
    return first_user(body).split("scratch folder is `")[1].split("`")[0]


def test_a_failed_task_fails_its_dependants_with_the_reason(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(
        call(
            "decompose",
            tasks=[
                {"id": "a", "objective": "TASK-A fetch", "deliverable": "data"},
                {"id": "b", "objective": "TASK-B use it", "deliverable": "report", "depends_on": ["a"]},
            ],
        ),
        done("Parent went on."),
    )
    srv.route(
        "TASK-A", ScriptedReply(text="BLOCKED: the data source is gone"), ScriptedReply(text="BLOCKED: gone")
    )
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    got = json.loads(tool_results(events, "decompose")[0].output)
    assert got["status"] == "failed"
    assert got["tasks"]["a"]["status"] == "failed" and "gone" in got["tasks"]["a"]["error"]
    assert got["tasks"]["b"]["status"] == "failed"
    assert "a: blocked" in got["tasks"]["b"]["error"] and "not run" in got["tasks"]["b"]["error"]
    assert not any("TASK-B" in first_user(b) for b in srv.requests)  # B never ran


def test_artifacts_of_a_finished_task_flow_into_its_dependants_brief(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(
        call(
            "decompose",
            tasks=[
                {"id": "a", "objective": "TASK-A write the data", "deliverable": "data.csv"},
                {
                    "id": "b",
                    "objective": "TASK-B sum the data",
                    "deliverable": "the sum",
                    "depends_on": ["a"],
                },
            ],
        ),
        done(),
    )
    srv.route(
        "TASK-A",
        lambda body: call("write", path=f"{scratch_of(body)}/data.csv", content="1\n2\n"),
        done("Wrote data.csv with two numbers."),
    )
    srv.route("TASK-B", done('The sum is 3.\n```json\n{"sum": 3}\n```'))
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    got = json.loads(tool_results(events, "decompose")[0].output)
    assert got["status"] == "done"
    artifact = got["tasks"]["a"]["artifacts"][0]
    assert artifact.endswith("/data.csv") and (workspace / artifact).read_text() == "1\n2\n"
    b_brief = first_user(next(b for b in srv.requests if "TASK-B" in first_user(b)))
    assert artifact in b_brief and "Wrote data.csv with two numbers." in b_brief
    assert got["tasks"]["b"]["data"] == {"sum": 3}


@pytest.mark.parametrize(
    ("tasks", "message"),
    [
        (
            [
                {"id": "a", "objective": "x", "deliverable": "y", "depends_on": ["b"]},
                {"id": "b", "objective": "x", "deliverable": "y", "depends_on": ["a"]},
            ],
            "cycle",
        ),
        ([{"id": "a", "objective": "x", "deliverable": "y", "depends_on": ["zz"]}], "unknown task"),
        (
            [
                {"id": "a", "objective": "x", "deliverable": "y"},
                {"id": "a", "objective": "x", "deliverable": "y"},
            ],
            "unique",
        ),
        ([{"id": str(i), "objective": "x", "deliverable": "y"} for i in range(9)], "at most 8"),
    ],
)
def test_bad_task_graphs_are_errors_the_model_reads(
    workspace: Path, srv: ScriptedServer, tasks: list[dict[str, Any]], message: str
) -> None:
    srv.add(call("decompose", tasks=tasks), done())
    finished, events, _ = run_parent(workspace, srv)
    assert finished.status is Status.DONE
    (result,) = tool_results(events, "decompose")
    assert not result.ok and message in result.output
    assert len(srv.requests) == 2  # nothing ran


def test_independent_tasks_run_at_the_same_time_up_to_the_limit(workspace: Path) -> None:
    server = ScriptedServer(request_delay=0.4).start()
    try:
        tasks = [{"id": f"t{i}", "objective": f"PAR-{i} work", "deliverable": "a word"} for i in range(4)]
        server.add(call("decompose", tasks=tasks), done())
        for i in range(4):
            server.route(f"PAR-{i}", done(f"word {i}"))
        _finished, events, _ = run_parent(workspace, server, subagent_concurrency=2)
    finally:
        server.stop()
    got = json.loads(tool_results(events, "decompose")[0].output)
    assert got["status"] == "done" and len(got["tasks"]) == 4
    # the server held each request 0.4 s: two children's requests overlapped, never more (the limit)
    assert server.most_busy == 2


# -- agent definitions --------------------------------------------------------------------------


def test_a_defined_agent_is_used_by_name_with_its_tools_model_and_instructions(
    workspace: Path, srv: ScriptedServer, tmp_path: Path
) -> None:
    folder = workspace / ".claude" / "agents"
    folder.mkdir(parents=True)
    (folder / "reader.md").write_text(
        "---\nname: reader\ndescription: Reads files and reports\ntools: Read, Grep\nmodel: reader-model\n"
        "maxTurns: 4\n---\nYou only read. Never change anything. READER-INSTRUCTIONS\n"
    )
    (folder / "broken.md").write_text("no front matter here\n")
    user_agents = tmp_path / "config" / "hearth" / "agents"
    user_agents.mkdir(parents=True)
    (user_agents / "mine.md").write_text("---\nname: mine\ndescription: The user's own\n---\nHi.\n")
    srv.add(call("delegate", objective="READER look", deliverable="what is there", agent="reader"), done())
    srv.route("READER", done("Nothing much."))
    finished, events, _ = run_parent(workspace, srv, tools_on_demand=False)  # delegate's whole description
    assert finished.status is Status.DONE
    parent_tools = {t["function"]["name"]: t["function"]["description"] for t in srv.requests[0]["tools"]}
    assert "reader: Reads files and reports" in parent_tools["delegate"]
    assert "mine: The user's own" in parent_tools["delegate"]
    child = next(b for b in srv.requests if "READER" in first_user(b))
    assert sorted(tool_names(child)) == ["grep", "read"]  # only what it lists
    assert child["model"] == "reader-model"
    assert "READER-INSTRUCTIONS" in child["messages"][0]["content"]
    assert json.loads(tool_results(events, "delegate")[0].output)["status"] == "done"


def test_definition_files_parse_both_spellings() -> None:
    d = parse_definition(
        "---\nname: rev\ndescription: Reviews\ntools:\n  - Read\n  - Bash\npermission_mode: plan\nmax_turns: 3\n"
        "role: reviewer\n---\nBody\n",
        "rev.md",
    )
    assert d is not None
    assert (
        d.tools == ("read", "shell") and d.permission_mode is not None and d.permission_mode.value == "plan"
    )
    assert d.max_turns == 3 and d.role == "reviewer" and d.body == "Body"
    for bad in (
        "no front matter",
        "---\nname: x\n",
        "---\npermissionMode: godmode\n---\n",
        "---\nmaxTurns: -1\n---\n",
    ):
        with pytest.raises(ValueError):
            parse_definition(bad, "bad.md")


def test_broken_definition_files_are_reported_not_fatal(tmp_path: Path) -> None:
    folder = tmp_path / ".hearth" / "agents"
    folder.mkdir(parents=True)
    (folder / "ok.md").write_text("---\ndescription: fine\n---\nx\n")
    (folder / "bad.md").write_text("oops\n")
    found, problems = load_definitions(tmp_path, None)
    assert list(found) == ["ok"] and len(problems) == 1 and "bad.md" in problems[0]


def test_a_schema_1_store_gains_the_parent_link(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL"
        " DEFAULT 'new', created TEXT NOT NULL, updated TEXT NOT NULL, workspace TEXT NOT NULL DEFAULT '',"
        " model TEXT NOT NULL DEFAULT '', wake_at TEXT);"
        "INSERT INTO sessions(id, created, updated) VALUES ('old', '2026-01-01', '2026-01-01');"
        "PRAGMA user_version=1;"
    )
    db.close()
    store = SessionStore(path)
    try:
        assert store.get("old").parent is None
        child = store.create("/ws", "m", parent="old", title="a child")
        assert store.children("old") == [child] and store.get(child).title == "a child"
    finally:
        store.close()
