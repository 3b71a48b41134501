"""The queue under crashes and concurrency: real processes killed with SIGKILL, two runners on one
project, plans registered by content, the JSON repair the planner and reviewer rely on."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import forkserver
from hearth.llm.structured import parse_answer
from hearth.pipeline.runner import open_pipeline_store, register_plans
from hearth.pipeline.schema import TaskList, Verdict
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from pipelinesupport import (
    coder_marker,
    done,
    make_plan,
    planned,
    planner_marker,
    reviewer_marker,
    task,
    verdict,
    write,
)
from support import clean_env, state_of


def _runner(home: Path, workspace: Path, server: ScriptedServer) -> forkserver.Process:
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_TOOL_MODE="native")
    return forkserver.popen(
        [
            "pipeline",
            "run",
            "--once",
            "--poll",
            "0.1",
            "-w",
            str(workspace),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait(predicate: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _db(workspace: Path) -> sqlite3.Connection:
    return sqlite3.connect(state_of(workspace) / "sessions.db")


def _requests_for(server: ScriptedServer, marker: str) -> int:
    return sum(
        1
        for b in list(server.requests)
        if marker in next(m["content"] for m in b["messages"] if m["role"] == "user")
    )


def test_kill_9_mid_task_and_a_restart_resumes_the_same_session_without_redoing_anything(
    home: Path, workspace: Path, server: ScriptedServer
) -> None:
    make_plan(workspace, "crash", "Two steps.\n")
    server.route(
        planner_marker("crash"),
        planned(task("t1", "First", ["a.py"]), task("t2", "Second", ["b.py"], ["t1"])),
    )
    slow = ScriptedReply(text="Still thinking about it " * 40 + "\nTASK_COMPLETE", chunk_size=4, delay=0.05)
    server.route(coder_marker("t1"), write("a.py", "A = 1\n"), slow)
    first = _runner(home, workspace, server)
    try:
        _wait(lambda: _requests_for(server, coder_marker("t1")) == 2)  # the slow reply is streaming
        time.sleep(0.2)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == -signal.SIGKILL
    with _db(workspace) as db:
        assert db.execute("SELECT status, stage, attempts FROM pipeline_tasks WHERE key='t1'").fetchone() == (
            "running",
            "coding",
            1,
        )
    # the restart gets the rest of the conversation
    server.route(coder_marker("t1"), done("Resumed and finished."))
    server.route(reviewer_marker("t1"), verdict("pass"))
    server.route(coder_marker("t2"), write("b.py", "B = 2\n"), done())
    server.route(reviewer_marker("t2"), verdict("pass"))
    second = _runner(home, workspace, server)
    _out, err = second.communicate(timeout=90)
    assert second.returncode == 0, err
    assert "its runner" in err and "is gone; it resumes" in err
    assert server.violations == [] and server.remaining == 0
    assert _requests_for(server, planner_marker("crash")) == 1  # not planned again
    with _db(workspace) as db:
        rows = db.execute("SELECT key, status, attempts, session FROM pipeline_tasks ORDER BY key").fetchall()
        assert [(k, s, a) for k, s, a, _ in rows] == [("t1", "done", 1), ("t2", "done", 1)]
        session = rows[0][3]
        assert db.execute("SELECT COUNT(*) FROM pipeline_attempts WHERE task_id=1").fetchone()[0] == 1
        kinds = [
            k for (k,) in db.execute("SELECT kind FROM events WHERE session_id=? ORDER BY seq", (session,))
        ]
        assert kinds.count("tool_result") == 1  # the write ran once
        assert kinds.count("session_started") == 1
        texts = [
            json.loads(d)
            for (d,) in db.execute(
                "SELECT data FROM events WHERE session_id=? AND kind='hearth_message'", (session,)
            )
        ]
        assert any(t.get("reason") == "resume" for t in texts)
        # no other session was opened for t1
        firsts = db.execute(
            "SELECT COUNT(*) FROM events WHERE kind='user_message' AND data LIKE ?",
            (f"%{coder_marker('t1')}%",),
        ).fetchone()[0]
        assert firsts == 1
    assert (workspace / "a.py").read_text() == "A = 1\n"


def test_two_runners_on_one_project_split_the_tasks_and_never_work_one_twice(
    home: Path, workspace: Path
) -> None:
    server = ScriptedServer(request_delay=0.3).start()
    try:
        make_plan(workspace, "wide", "Eight independent files.\n")
        keys = [f"t{i}" for i in range(1, 9)]
        server.route(planner_marker("wide"), planned(*[task(k, f"File {k}", [f"{k}.txt"]) for k in keys]))
        for k in keys:
            server.route(coder_marker(k), write(f"{k}.txt", f"{k}\n"), done())
            server.route(reviewer_marker(k), verdict("pass"))
        runners = [_runner(home, workspace, server), _runner(home, workspace, server)]
        results = [r.communicate(timeout=120) for r in runners]
        for r, (_, err) in zip(runners, results, strict=True):
            assert r.returncode == 0, err
        assert server.violations == [] and server.remaining == 0  # a task worked twice would ask for more
        with _db(workspace) as db:
            assert db.execute("SELECT COUNT(*) FROM pipeline_tasks WHERE status='done'").fetchone()[0] == len(
                keys
            )
            assert db.execute("SELECT COUNT(*) FROM pipeline_attempts").fetchone()[0] == len(keys)
            owners = {r for (r,) in db.execute("SELECT runner FROM pipeline_attempts")}
            pids = {o.split(":")[1] for o in owners}
        assert pids == {str(r.pid) for r in runners}  # both runners worked
    finally:
        server.stop()


def test_a_plan_is_registered_by_content_an_unchanged_resave_is_nothing_and_an_edit_a_new_version(
    workspace: Path,
) -> None:
    store = open_pipeline_store(workspace)
    try:
        path = make_plan(workspace, "p", "Build a thing.\nTest: pytest -q\n")
        (new,) = register_plans(store, workspace)
        assert (new.version, new.status, new.test_command) == (1, "new", "pytest -q")
        path.write_text("Build a thing.\nTest: pytest -q\n")  # saved again, same content
        os.utime(path, (time.time() + 5, time.time() + 5))
        assert register_plans(store, workspace) == []
        make_plan(workspace, "README", "Not a plan.\n")
        assert register_plans(store, workspace) == []
        path.write_text("Build a better thing.\n")
        (edited,) = register_plans(store, workspace)
        assert edited.version == 2
        old = store.plan(new.id)
        assert old.status == "cancelled" and old.reason == "superseded by version 2 of plans/p.md"
        (workspace / "plans" / "bin.md").write_bytes(b"\xff\xfe plan")
        (bad,) = register_plans(store, workspace)
        assert bad.status == "failed" and "not UTF-8" in bad.reason
    finally:
        store.close()
    reopened = open_pipeline_store(workspace)  # the file keeps it all
    assert [p.version for p in reopened.plans()] == [1, 2, 1]
    reopened.close()


def _parsed(reply: str, schema: type[Any]) -> tuple[Any, str]:
    try:
        return parse_answer(reply, schema), ""
    except ValueError as exc:
        return None, str(exc)


def test_json_is_repaired_where_that_is_safe_and_refused_with_the_field_otherwise() -> None:
    reply = '<think>let me see</think>Here:\n```json\n{"verdict": "rework", "reasons": ["no tests",],}\n```'
    value, error = _parsed(reply, Verdict)
    assert error == "" and value is not None and value.reasons == ["no tests"]
    value, error = _parsed('[{"id": "t1", "title": "One"}]', TaskList)  # a bare list
    assert value is not None and value.tasks[0].id == "t1"
    value, error = _parsed('Here they are: [{"id": "t1", "title": "One"}]', TaskList)
    assert value is not None and value.tasks[0].id == "t1"
    value, error = _parsed('{"verdict": "rework", "reasons": []}', Verdict)
    assert value is None and "at least one reason" in error
    value, error = _parsed('{"tasks": [{"id": "t1", "title": "x", "files": ["/etc/passwd"]}]}', TaskList)
    assert value is None and "tasks.0.files" in error
    value, error = _parsed("{\u201cverdict\u201d: \u201cpass\u201d}", Verdict)
    assert value is not None and value.verdict == "pass"
    value, error = _parsed("Verdict: pass", Verdict)
    assert value is None and "no JSON object was found" in error


def test_a_plan_file_written_while_a_coder_works_waits_until_that_work_ends(workspace: Path) -> None:
    from hearth.pipeline.queue.store import NewTask

    store = open_pipeline_store(workspace)
    try:
        make_plan(workspace, "first", "One task.\n")
        (plan,) = register_plans(store, workspace)
        assert store.claim_plan("me") is not None
        store.set_tasks(plan.id, [NewTask("t1", "Task")], 0)
        claimed = store.claim_task("me")
        assert claimed is not None
        n = store.start_attempt(claimed.id, "me", "session-1")
        time.sleep(0.01)
        make_plan(workspace, "planted", "Written meanwhile.\n")
        os.utime(workspace / "plans" / "planted.md", (0, 0))  # an old mtime does not hide it (ctime)
        assert register_plans(store, workspace) == []
        store.end_attempt(claimed.id, n, outcome="pass", verifier=[], verdict={}, tokens=0, status="done")
        assert [p.name for p in register_plans(store, workspace)] == ["planted"]
    finally:
        store.close()


def test_an_attempt_that_cannot_run_fails_its_task_once_with_the_reason(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: Any
) -> None:
    """A rework whose session was deleted (`hearth sessions rm`): the task fails saying so, and
    the runner goes on (no loop of new sessions)."""
    import asyncio

    from hearth.pipeline.queue.store import NewTask
    from hearth.pipeline.runner import PipelineOptions, Runner
    from hearth.runtime.config import load_settings
    from hearth.runtime.session import open_runtime

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    settings = load_settings(
        {"workspace": workspace, "llm_url": server.url, "tool_mode": "native"},
        environ={},
        cwd=workspace,
        user_file=home / "none.toml",
    ).settings
    store = open_pipeline_store(workspace)
    make_plan(workspace, "gone", "One task.\n")
    (plan,) = register_plans(store, workspace)
    assert store.claim_plan("me") is not None
    store.set_tasks(plan.id, [NewTask("t1", "Task"), NewTask("t2", "After", depends=("t1",))], 0)
    claimed = store.claim_task("me")
    assert claimed is not None
    n = store.start_attempt(claimed.id, "me", "20990101-000000-dead00")
    store.end_attempt(
        claimed.id,
        n,
        outcome="verifier",
        verifier=["x"],
        verdict={},
        tokens=0,
        status="pending",
        feedback="- x",
    )

    async def go() -> None:
        rt = await open_runtime(settings)
        try:
            await Runner(rt, store, PipelineOptions(poll=0.05, git=False)).run(once=True)
        finally:
            await rt.aclose()

    asyncio.run(go())
    t1, t2 = store.tasks(plan.id)
    assert t1.status == "failed" and t1.reason.startswith("the attempt could not run: NotFound: No session")
    assert t2.status == "failed" and t2.reason.startswith("not run: it depends on t1")
    assert store.plan(plan.id).status == "failed"
    assert server.requests == []
    store.close()


def test_a_watching_runner_picks_up_a_plan_dropped_in_later_and_stops_on_ctrl_c(
    home: Path, workspace: Path, server: ScriptedServer
) -> None:
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_TOOL_MODE="native")
    proc = forkserver.popen(
        [
            "pipeline",
            "run",
            "--poll",
            "0.1",
            "-w",
            str(workspace),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)
        assert proc.poll() is None  # nothing to do: it keeps watching
        server.route(planner_marker("later"), planned(task("t1", "Late", ["late.txt"])))
        server.route(coder_marker("t1"), write("late.txt", "late\n"), done())
        server.route(reviewer_marker("t1"), verdict("pass"))
        make_plan(workspace, "later", "Dropped in while watching.\n")
        _wait(lambda: (state_of(workspace) / "pipeline/reports/later-v1/quality_report.json").exists(), 60)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "plan #1 later done" in err
    assert server.violations == [] and server.remaining == 0


def test_a_role_with_json_schema_gets_the_schema_as_response_format_and_one_without_does_not(
    server: ScriptedServer,
) -> None:
    import asyncio

    from hearth.core.types import Message
    from hearth.llm.client import ClientSettings, OpenAICompatModel
    from hearth.llm.structured import ask_json

    server.add(verdict("pass"), ScriptedReply(text="Verdict: pass"), verdict("rework", "name the file"))

    async def go() -> None:
        model = OpenAICompatModel(ClientSettings(base_url=server.url, retries=0))
        asked = [Message(role="user", content="Review task t1: x")]
        for flag in (True, False):
            answer = await ask_json(
                model, asked, Verdict, json_schema=flag, temperature=0.0, sampling={"seed": 7}, retries=2
            )
            assert answer.value is not None
            assert answer.attempts == (1 if flag else 2) and answer.tokens > 0
        await model.aclose()

    asyncio.run(go())
    first, second, third = server.requests
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["schema"] == Verdict.model_json_schema()
    assert first["seed"] == 7 and first["temperature"] == 0.0
    assert "response_format" not in second and "response_format" not in third
    assert '"reasons"' in second["messages"][-1]["content"]  # without the flag: the schema in the prompt
    assert "no JSON object was found" in third["messages"][-1]["content"]


def test_claims_of_a_live_runner_are_kept_and_a_gone_or_silent_runners_are_taken_over(
    workspace: Path,
) -> None:
    import socket

    from hearth.pipeline.queue.store import NewTask

    store = open_pipeline_store(workspace)
    try:
        make_plan(workspace, "claims", "Three.\n")
        (plan,) = register_plans(store, workspace)
        assert store.claim_plan("me") is not None
        store.set_tasks(plan.id, [NewTask(k, k) for k in ("a", "b", "c")], 0)
        host = socket.gethostname()
        alive = f"{host}:{os.getpid()}:aa"  # this very process
        dead = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
        )
        gone = f"{host}:{dead.stdout.strip()}:bb"
        remote = "elsewhere.example:4242:cc"
        claimed = [store.claim_task(owner) for owner in (alive, gone, remote)]
        assert [t.key for t in claimed if t] == ["a", "b", "c"]
        assert store.claim_task("someone") is None  # nothing is claimed twice
        notes = store.recover()
        assert len(notes) == 1 and "'b'" in notes[0]  # the dead process's
        with _db(workspace) as db:
            db.execute("UPDATE pipeline_tasks SET heartbeat=heartbeat-1000 WHERE claimed_by=?", (remote,))
        notes = store.recover()
        assert len(notes) == 1 and "'c'" in notes[0]  # the silent machine's, after the lease
        assert {t.key: t.status for t in store.tasks(plan.id)} == {
            "a": "running",
            "b": "pending",
            "c": "pending",
        }
    finally:
        store.close()


def test_one_plan_holds_the_checkout_at_a_time_and_only_its_tasks_are_claimed_meanwhile(
    workspace: Path,
) -> None:
    from hearth.pipeline.queue.store import CheckoutHold, NewTask

    store = open_pipeline_store(workspace)
    try:
        make_plan(workspace, "a", "A.\n")
        make_plan(workspace, "b", "B.\n")
        first, second = register_plans(store, workspace)
        for plan in (first, second):
            assert store.claim_plan("me", plan.id) is not None
            store.set_tasks(plan.id, [NewTask("t1", "one"), NewTask("t2", "two")], 0)
        assert store.take_checkout(CheckoutHold(second.id, "hearth/plan-b", "main"))
        assert not store.take_checkout(CheckoutHold(first.id, "hearth/plan-a", "main"))  # taken
        assert store.checkout() == CheckoutHold(second.id, "hearth/plan-b", "main")
        hold = store.checkout()
        assert hold is not None
        claimed = [store.claim_task("me", plan_id=hold.plan_id) for _ in range(3)]
        assert [(t.plan_id, t.key) for t in claimed if t] == [(second.id, "t1"), (second.id, "t2")]
        assert claimed[2] is None  # the other plan's tasks wait for the checkout
        assert not store.drop_checkout(first.id)  # only the holder's plan drops it
        assert store.drop_checkout(second.id) and store.checkout() is None
        assert store.take_checkout(CheckoutHold(first.id, "hearth/plan-a", "main"))
    finally:
        store.close()
    reopened = open_pipeline_store(workspace)  # the hold is in the file: every runner sees it
    assert reopened.checkout() == CheckoutHold(first.id, "hearth/plan-a", "main")
    reopened.close()
