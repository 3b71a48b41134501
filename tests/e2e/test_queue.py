"""The agent's own work queue (after wyrmspire's queue_add/queue_next/queue_done), through the
real `hearth` command and the scripted server: the queue lives in the session's events, so a
resumed session in a new process finds it as it was; the model's mistakes come back as results
it can fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearth.core.events import latest_work
from hearth.store.sessions import SessionStore
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from support import state_of

LARGE = "qwen2.5-coder-32b-instruct"


def _call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


def _run(
    hearth: Any, server: ScriptedServer, workspace: Path, *args: str, code: int = 0
) -> list[dict[str, Any]]:
    res = hearth(
        "run",
        *args,
        "-w",
        str(workspace),
        "--json",
        "-p",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", "HEARTH_MODEL": LARGE},
        timeout=180,  # up to a dozen steps in one process: on the shared 2-core machine 60 s ran out
    )
    assert res.code == code, res.stdout[-2000:] + res.stderr[-2000:]
    return res.json_lines()


def _results(lines: list[dict[str, Any]], tool: str) -> list[dict[str, Any]]:
    return [line for line in lines if line["type"] == "tool_result" and line["tool"] == tool]


def test_the_queue_is_worked_in_order_and_survives_resume_in_a_new_process(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    server.add(
        _call("queue_add", task="write a.txt"),
        _call("queue_add", task="write b.txt"),
        _call("queue_next"),
        _call("write", path="a.txt", content="a\n"),
        _call("queue_done", id=1, changed="wrote a.txt", next="write b.txt"),
        ScriptedReply(text="BLOCKED: stopping for today"),
    )
    first = _run(hearth, server, workspace, "write a.txt then b.txt, one at a time", code=3)
    sid = first[0]["session"]
    assert [line["status"] for line in first if line["type"] == "done"] == ["blocked"]
    assert "queue_next" in json.dumps(server.requests[0]["tools"])  # listed in tool_load
    [taken] = _results(first, "queue_next")
    assert taken["success"] and taken["output"].startswith("Task 1: write a.txt")
    [done] = _results(first, "queue_done")
    assert done["success"] and "Next in the queue: task 2: write b.txt" in done["output"]

    # A new process resumes the session: the queue is rebuilt from its events, task 1 done with
    # what changed, task 2 still waiting; queue_next takes task 2, not task 1 again.
    server.add(
        _call("todo_list"),
        _call("queue_next"),
        _call("write", path="b.txt", content="b\n"),
        _call("queue_done", id=2, changed="wrote b.txt"),
        ScriptedReply(text="Both written. TASK_COMPLETE"),
    )
    second = _run(hearth, server, workspace, "--resume", sid, "go on")
    assert second[0]["session"] == sid
    [listed] = _results(second, "todo_list")
    assert "[x] 1. write a.txt (changed: wrote a.txt; next: write b.txt)" in listed["output"]
    assert "[ ] 2. write b.txt" in listed["output"]
    [taken] = _results(second, "queue_next")
    assert taken["output"].startswith("Task 2: write b.txt")
    assert [line["status"] for line in second if line["type"] == "done"] == ["done"]
    assert (workspace / "b.txt").read_text() == "b\n"

    store = SessionStore(state_of(workspace) / "sessions.db")
    work = latest_work(store.events(sid))
    store.close()
    assert [(t.id, t.status, t.changed) for t in work.todos] == [
        (1, "done", "wrote a.txt"),
        (2, "done", "wrote b.txt"),
    ]


def test_bad_queue_calls_come_back_as_errors_the_model_can_fix(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    server.add(
        _call("queue_next"),  # empty queue: said, not an error
        _call("queue_add", task="tidy the notes"),
        _call("queue_add", task="sort the list"),
        _call("queue_next"),
        _call("queue_next"),  # task 1 is still in progress
        _call("queue_done", id=7, changed="nothing"),  # no such task
        _call("queue_done", id=1, changed="tidied the notes"),
        _call("queue_done", id=1, changed="tidied again"),  # done twice
        _call("queue_done", id=2, changed=""),  # `changed` must say something
        _call("queue_next"),
        _call("queue_done", id=2, changed="sorted the list"),
        ScriptedReply(text="All done. TASK_COMPLETE"),
    )
    lines = _run(hearth, server, workspace, "tidy and sort")
    nexts = _results(lines, "queue_next")
    assert nexts[0]["success"] and nexts[0]["output"].startswith("The queue is empty")
    assert nexts[1]["output"].startswith("Task 1: tidy the notes")
    assert not nexts[2]["success"]
    assert "Task 1 (tidy the notes) is still in progress" in nexts[2]["output"]
    assert 'queue_done(id=1, changed="<what you changed>")' in nexts[2]["output"]
    assert nexts[3]["success"] and nexts[3]["output"].startswith("Task 2: sort the list")
    dones = _results(lines, "queue_done")
    assert [d["success"] for d in dones] == [False, True, False, False, True]
    assert "No task 7 in the queue. Task ids: 1 (in progress), 2 (pending)." in dones[0]["output"]
    assert (
        "Task 1 is already done (changed: tidied the notes). queue_next takes task 2." in dones[2]["output"]
    )
    assert (
        dones[3]["output"].startswith("Invalid arguments for queue_done") and "changed" in dones[3]["output"]
    )
    assert "All todos are done" in dones[4]["output"]
    assert [line["status"] for line in lines if line["type"] == "done"] == ["done"]
    # The second done did not overwrite what the first one recorded.
    store = SessionStore(state_of(workspace) / "sessions.db")
    work = latest_work(store.events(lines[0]["session"]))
    store.close()
    assert work.todos[0].changed == "tidied the notes"
