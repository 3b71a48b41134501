"""One session state, one way to start a session.

A session's mode, the rules allowed for it, its token budget and the words Hearth adds to a turn
are events, so every interface resumes them; plan mode gives the mode before it back however
the plan ends; deep work is there through every interface. Real CLI subprocesses, a real web
server on 127.0.0.1, the real `openai` package, the scripted model server behind them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openai
import pytest

from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from support import clean_env
from websupport import TOKEN, Web, receive_until, running_web

PLAN = "Here is the plan:\n1. Create notes.txt\n2. Write the summary into it"


def _call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


def _done(text: str = "All done.") -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


# -- plan mode ends, the mode before it comes back --------------------------------------------------


def _write_after(web: Web, session: str) -> dict[str, Any]:
    """The next message in the same session asks for a write; how it went."""
    web.model.add(_call("write", path="after.txt", content="written\n"), _done("Wrote it."))
    with web.client() as api:
        out: dict[str, Any] = api.post(f"/api/chat/{session}", json={"message": "now write after.txt"}).json()
    return out


def test_a_rejected_plan_leaves_the_session_in_its_old_mode(web: Web) -> None:
    web.model.add(_call("ls", path="."), ScriptedReply(text=PLAN))
    with web.ws("/ws/rejected") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "write notes", "plan": True}))
        seen = receive_until(ws, "plan_approval")
        ws.send(json.dumps({"type": "plan_decision", "id": seen[-1]["id"], "decision": "reject"}))
        seen += receive_until(ws, "done")
        assert seen[-1]["status"] == "done" and "rejected" in seen[-1]["reason"]
        seen += receive_until(ws, "mode_changed")  # the plan's end, as the viewers see it
        assert [m["mode"] for m in seen if m["type"] == "mode_changed"] == ["plan", "normal"]
    out = _write_after(web, "rejected")
    assert out["status"] == "done"
    assert (web.workspace / "after.txt").read_text() == "written\n"
    with web.ws("/ws/rejected") as ws:
        assert json.loads(ws.recv(timeout=10))["mode"] == "normal"


def test_a_blocked_plan_leaves_the_session_in_its_old_mode(web: Web) -> None:
    web.model.add(_call("ls", path="."), ScriptedReply(text="BLOCKED: I cannot see what notes you mean"))
    with web.ws("/ws/blocked") as ws, web.client() as api:  # a viewer keeps the session open
        receive_until(ws, "hello")
        api.post("/api/sessions/blocked/mode", json={"mode": "auto"})
        out = api.post("/api/chat/blocked", json={"message": "write notes", "plan": True}).json()
        assert out["status"] == "blocked"
        assert _write_after(web, "blocked")["status"] == "done"
    assert (web.workspace / "after.txt").read_text() == "written\n"
    with web.ws("/ws/blocked") as ws:  # and from the store, once no one holds it
        assert json.loads(ws.recv(timeout=10))["mode"] == "auto"


def test_a_plan_that_hits_the_limit_leaves_the_session_in_its_old_mode(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_web(workspace, home, server, monkeypatch, tool_mode="native", max_iterations=2) as web:
        web.model.add(_call("ls", path="."), _call("read", path="nothing.txt"))
        with web.ws("/ws/limited") as ws, web.client() as api:
            receive_until(ws, "hello")
            out = api.post("/api/chat/limited", json={"message": "write notes", "plan": True}).json()
            assert out["status"] == "limit"
            assert _write_after(web, "limited")["status"] == "done"
        assert (workspace / "after.txt").read_text() == "written\n"


def test_a_plan_cut_short_by_a_killed_process_does_not_leave_the_session_in_plan_mode(
    home: Path, server: ScriptedServer, workspace: Path
) -> None:
    """The process dies mid-plan (no `finally` runs); the resumed session is in its old mode."""
    server.add(ScriptedReply(text="thinking " * 400, chunk_size=4, delay=0.05))
    command = [sys.executable, "-m", "hearth", "run", "write notes", "--plan", "-w", str(workspace), "--json"]
    env = clean_env(home, HEARTH_LLM_URL=server.url)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    lines = [json.loads(proc.stdout.readline()) for _ in range(3)]  # started, mode_changed, user
    assert [line["type"] for line in lines] == ["session_started", "mode_changed", "user_message"]
    deadline = time.monotonic() + 20
    while not server.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    server.add(_call("write", path="after.txt", content="x"), _done())
    later = subprocess.run(
        [sys.executable, "-m", "hearth", "run", "--resume", lines[0]["session"], "write it"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert later.returncode == 0, later.stdout + later.stderr
    assert (workspace / "after.txt").exists()


# -- mode, rules and budget survive --resume ----------------------------------------------------------


def test_the_mode_survives_resume_and_a_flag_changes_it(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    env = {"HEARTH_LLM_URL": server.url}
    (workspace / "a.txt").write_text("A\n")
    server.add(_done("Hello."))
    first = hearth("run", "hello", "-p", "manual", "-w", str(workspace), "--json", env=env)
    sid = first.json_lines()[0]["session"]
    server.add(_call("read", path="a.txt"), _done("Could not read it."))
    resumed = hearth("run", "--resume", sid, "read a.txt", "-w", str(workspace), "--json", env=env)
    [decision] = [line for line in resumed.json_lines() if line["type"] == "permission"]
    assert decision["allowed"] is False and decision["by"] == "headless"  # manual mode asks: no one here
    assert "manual mode" in decision["reason"]
    server.add(_call("read", path="a.txt"), _done("Read it."))
    changed = hearth("run", "-r", sid, "read a.txt", "-p", "normal", "-w", str(workspace), "--json", env=env)
    lines = changed.json_lines()
    assert [line["mode"] for line in lines if line["type"] == "mode_changed"] == ["normal"]
    assert [line["allowed"] for line in lines if line["type"] == "permission"] == [True]


def test_the_token_budget_survives_resume(hearth: Any, server: ScriptedServer, workspace: Path) -> None:
    env = {"HEARTH_LLM_URL": server.url}
    spent = {"prompt_tokens": 3000, "completion_tokens": 100, "total_tokens": 3100}
    server.add(ScriptedReply(text="Started.\nTASK_COMPLETE", usage=spent))
    first = hearth("run", "big job", "--deep", "--budget", "5000", "-w", str(workspace), "--json", env=env)
    assert first.code == 0, first.stderr
    sid = first.json_lines()[0]["session"]
    assert [line["tokens"] for line in first.json_lines() if line["type"] == "budget_set"] == [5000]
    server.add(ScriptedReply(text="More.\nTASK_COMPLETE", usage=spent))
    resumed = hearth("run", "--resume", sid, "go on", "-w", str(workspace), "--json", env=env)
    finished = resumed.json_lines()[-1]
    assert resumed.code == 2 and "token budget of 5000" in finished["reason"], finished


# -- Hearth's words are Hearth's ------------------------------------------------------------------------


def test_preambles_are_hearths_words_not_the_users(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    env = {"HEARTH_LLM_URL": server.url}
    server.add(_call("ls", path="."), ScriptedReply(text=PLAN))
    run = hearth("run", "write the notes", "--plan", "--deep", "-w", str(workspace), "--json", env=env)
    assert run.code == 0, run.stderr
    lines = run.json_lines()
    sid = lines[0]["session"]
    assert [line["text"] for line in lines if line["type"] == "user_message"] == ["write the notes"]
    assert [line["reason"] for line in lines if line["type"] == "hearth_message"] == ["deep", "plan"]
    sent = server.requests[0]["messages"][1]["content"]  # the model still reads all of it, in one turn
    assert sent.startswith("write the notes") and "Deep-work mode" in sent and "Plan mode" in sent
    listing = hearth("sessions", "-w", str(workspace), env=env)
    assert "write the notes" in listing.stdout and "Plan mode" not in listing.stdout
    exported = hearth("sessions", "export", sid, "-w", str(workspace), env=env).stdout
    user_part = exported.split("## User", 1)[1].split("##", 1)[0]
    assert "write the notes" in user_part and "Plan mode" not in user_part
    assert "## Hearth" in exported and "Plan mode: do not change anything" in exported


def test_the_web_history_shows_preambles_as_hearths(web: Web) -> None:
    web.model.add(_call("ls", path="."), ScriptedReply(text=PLAN))
    with web.client() as api:
        api.post("/api/chat/pre", json={"message": "plan the notes", "plan": True})
        events = api.get("/api/sessions/pre/history").json()["events"]
        [info] = [s for s in api.get("/api/sessions").json() if s["id"] == "pre"]
    assert [m["text"] for m in events if m["type"] == "user_message"] == ["plan the notes"]
    assert [m["reason"] for m in events if m["type"] == "hearth_message"] == ["plan"]
    assert info["title"] == "plan the notes"


# -- one entry: deep work from the web API and the OpenAI endpoint ---------------------------------------


def test_deep_work_through_the_web_api(web: Web) -> None:
    web.model.add(_done("Deep done."))
    with web.client() as api:
        out = api.post(
            "/api/chat/deep", json={"message": "refactor it", "deep": True, "budget": 50_000}
        ).json()
        events = api.get("/api/sessions/deep/history").json()["events"]
    assert out["status"] == "done"
    sent = web.model.requests[-1]["messages"][1]["content"]
    assert "Deep-work mode" in sent and "budget of 50000 tokens" in sent
    assert [m["tokens"] for m in events if m["type"] == "budget_set"] == [50_000]


def test_deep_work_through_the_openai_endpoint(web: Web) -> None:
    web.model.add(_done("Deep answer."))
    client = openai.OpenAI(base_url=f"{web.url}/v1", api_key=TOKEN, max_retries=0, timeout=30)
    reply = client.chat.completions.create(
        model="hearth", messages=[{"role": "user", "content": "a long job"}], extra_body={"deep": True}
    )
    assert reply.choices[0].message.content == "Deep answer."
    sent = web.model.requests[-1]["messages"][1]["content"]
    assert sent.startswith("a long job") and "Deep-work mode" in sent and "budget of 200000 tokens" in sent


def test_a_chat_clients_earlier_turns_are_hearths_context_and_the_title_is_the_task(web: Web) -> None:
    web.model.add(_done("Blue."))
    client = openai.OpenAI(base_url=f"{web.url}/v1", api_key=TOKEN, max_retries=0, timeout=30)
    reply = client.chat.completions.create(
        model="hearth",
        messages=[
            {"role": "user", "content": "my favourite colour is blue"},
            {"role": "assistant", "content": "Noted."},
            {"role": "user", "content": "what is my favourite colour?"},
        ],
    )
    session = reply.model_dump()["hearth"]["session"]
    sent = web.model.requests[-1]["messages"][1]["content"]
    assert sent.index("user: my favourite colour is blue") < sent.index("what is my favourite colour?")
    with web.client() as api:
        events = api.get(f"/api/sessions/{session}/history").json()["events"]
        [info] = [s for s in api.get("/api/sessions").json() if s["id"] == session]
    assert [m["text"] for m in events if m["type"] == "user_message"] == ["what is my favourite colour?"]
    assert [m["reason"] for m in events if m["type"] == "hearth_message"] == ["conversation"]
    assert info["title"] == "what is my favourite colour?"


def test_repl_options_before_a_command_are_an_error_not_ignored(hearth: Any, workspace: Path) -> None:
    res = hearth("-p", "auto", "run", "x", "-w", str(workspace))
    assert res.code == 64 and "Put the options after the command: hearth run" in res.stderr


def test_a_rule_allowed_for_a_session_never_opens_a_secret_even_after_resume(web: Web, hearth: Any) -> None:
    """Only the user's settings may let a secret through (`allow = ["read(.env)"]`); 'allow for
    this session' on a read of .env allows the call, and the secret stays closed, then and after
    a resume (where the remembered rule is applied again)."""
    (web.workspace / ".env").write_text("API_KEY=hunter2\n")
    web.model.add(_call("read", path=".env"), _done("Could not."))
    with web.ws("/ws/secret") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "set_mode", "mode": "manual"}))
        ws.send(json.dumps({"type": "message", "content": "show .env"}))
        ask = receive_until(ws, "approval_request")[-1]
        ws.send(json.dumps({"type": "approve", "id": ask["id"], "decision": "session"}))
        seen = receive_until(ws, "done")
    [result] = [m for m in seen if m["type"] == "tool_result"]
    assert not result["success"] and "hunter2" not in result["output"]
    web.model.add(_call("read", path=".env"), _done("Still no."))
    later = hearth(
        "run",
        "--resume",
        "secret",
        "again",
        "-w",
        str(web.workspace),
        "--json",
        env={"HEARTH_LLM_URL": web.model.url},
    )
    lines = later.json_lines()
    [decision] = [line for line in lines if line["type"] == "permission"]
    assert decision["allowed"] and "allowed by the rule read(.env)" in decision["reason"]  # the rule held
    [again] = [line for line in lines if line["type"] == "tool_result"]
    assert not again["success"] and "looks like a secret" in again["output"]
    assert "hunter2" not in later.stdout and "hunter2" not in json.dumps(web.model.requests)
