"""Pilot: its only tools are the pipeline's controls (no shell, refused if called), through the
web API behind the token and through `hearth pilot`, against the scripted model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hearth.pipeline.pilot import PILOT_TOOLS
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from pipelinesupport import make_plan
from websupport import Web


def _call(tool: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=tool, arguments=arguments)])


def _tool_messages(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


def test_pilot_routes_need_the_token(web: Web) -> None:
    with web.client(token=None) as anon:
        assert anon.get("/api/pilot/status").status_code == 401
        assert anon.post("/api/pilot/plans", json={"name": "x", "text": "y"}).status_code == 401
        assert anon.post("/api/pilot/chat", json={"message": "hi"}).status_code == 401
    assert not (web.workspace / "plans").exists()


def test_pilot_controls_over_http_create_cancel_resume_retry_and_report(web: Web) -> None:
    with web.client() as api:
        assert api.get("/api/pilot/tools").json() == list(PILOT_TOOLS)
        made = api.post(
            "/api/pilot/plans", json={"name": "add-login", "text": "# Login\nAdd a login form.\n"}
        )
        assert made.status_code == 200 and "registered it as plan #1 (new)" in made.json()["message"]
        assert (web.workspace / "plans" / "add-login.md").read_text() == "# Login\nAdd a login form.\n"
        again = api.post("/api/pilot/plans", json={"name": "add-login", "text": "other"})
        assert again.status_code == 400 and "exists already" in again.json()["detail"]
        for bad in ("../escape", "Up", "a/b", ".hidden", "readme"):
            refused = api.post("/api/pilot/plans", json={"name": bad, "text": "x"})
            assert refused.status_code in (400, 422), bad
            assert (
                "Use 1-60 lower-case letters" in refused.json().get("hint", "") or refused.status_code == 422
            )
        assert not (web.workspace / "escape.md").exists()
        status = api.get("/api/pilot/status").json()
        assert [(p["plan"], p["status"]) for p in status["plans"]] == [("add-login", "new")]
        assert (
            api.post("/api/pilot/cancel", json={"plan": "add-login"})
            .json()["message"]
            .startswith("1 plan(s) cancelled")
        )
        assert api.get("/api/pilot/status").json()["plans"][0]["status"] == "cancelled"
        assert (
            api.post("/api/pilot/resume", json={})
            .json()["message"]
            .startswith("1 cancelled plan(s) open again")
        )
        assert api.get("/api/pilot/status").json()["plans"][0]["status"] == "new"
        assert api.post("/api/pilot/retry", json={}).json()["message"] == "Nothing had failed."
        assert api.get("/api/pilot/report").json()["totals"]["plans"] == 0
        missing = api.get("/api/pilot/report", params={"plan": "nope"})
        assert missing.status_code == 404


def test_pilot_chat_has_only_the_controls_and_a_shell_call_is_refused(web: Web) -> None:
    server: ScriptedServer = web.model
    server.add(
        _call("shell", command="touch pwned"),
        _call("create_plan", name="from-chat", text="# Greeter\nWrite greet.py.\nTest: python3 greet.py\n"),
        _call("pipeline_status"),
        ScriptedReply(text="I wrote the plan from-chat; it is queued.\nTASK_COMPLETE"),
    )
    with web.client() as api:
        reply = api.post("/api/pilot/chat", json={"message": "Plan a greeter, and run `touch pwned`."})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["status"] == "done" and "from-chat" in body["text"]
    first = server.requests[0]
    assert sorted(t["function"]["name"] for t in first["tools"]) == sorted(PILOT_TOOLS)
    assert "shell" not in json.dumps(first["tools"])
    refusal = _tool_messages(server.requests[1])[-1]
    assert "shell" in refusal and "pwned" not in {p.name for p in web.workspace.iterdir()}
    assert not (web.workspace / "pwned").exists()
    assert (web.workspace / "plans" / "from-chat.md").is_file()
    status_result = _tool_messages(server.requests[3])[-1]
    assert "plans/from-chat.md v1: new" in status_result
    # the session continues
    server.add(ScriptedReply(text="Still queued.\nTASK_COMPLETE"))
    with web.client() as api:
        more = api.post("/api/pilot/chat", json={"message": "And now?", "session": body["session"]}).json()
    assert more["session"] == body["session"] and more["text"] == "Still queued."


def test_hearth_pilot_on_the_command_line_shows_status_and_retries(
    hearth: Any, workspace: Path, server: ScriptedServer, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hearth.pipeline.runner import open_pipeline_store, register_plans

    # the queue lives in the state folder under the data folder `hearth` (run with `home`) reads
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    make_plan(workspace, "broken", "")
    store = open_pipeline_store(workspace)
    register_plans(store, workspace)  # an empty plan fails at once
    store.close()
    server.add(_call("pipeline_status"), _call("retry_failed"), ScriptedReply(text="Retried.\nTASK_COMPLETE"))
    result = hearth(
        "pilot",
        "-m",
        "What failed? Retry it.",
        "-w",
        str(workspace),
        env={"HEARTH_LLM_URL": server.url, "HEARTH_TOOL_MODE": "native"},
    )
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == "Retried."
    assert "tools: pipeline_status, create_plan" in result.stderr and "shell" not in result.stderr
    seen = _tool_messages(server.requests[1])[-1]
    assert "plans/broken.md v1: failed (the plan is empty" in seen
    assert "1 failed task(s) or plan(s) back in the queue." in _tool_messages(server.requests[2])[-1]
