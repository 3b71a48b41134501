"""A sub-agent's session is visible, linked to its parent, in the web API and `hearth sessions`:
a real web server on 127.0.0.1 and the real command line."""

from __future__ import annotations

import json
from typing import Any

from runtime.test_subagents import call, done, first_user
from websupport import Web


def test_the_child_session_is_linked_to_its_parent_in_the_web_api_and_the_cli(web: Web, hearth: Any) -> None:
    web.model.add(
        call("delegate", objective="WEBCHILD look around", deliverable="a list"), done("Parent done.")
    )
    web.model.route("WEBCHILD", call("ls", path="."), done("Saw the files."))
    with web.client() as api:
        out = api.post("/api/chat/webparent", json={"message": "delegate a look"}, timeout=60).json()
        assert out["status"] == "done", out
        sessions = {s["id"]: s for s in api.get("/api/sessions").json()}
        (child,) = [s for s in sessions.values() if s["parent"] == "webparent"]
        assert sessions["webparent"]["parent"] is None
        assert child["title"].startswith("WEBCHILD")
        history = api.get(f"/api/sessions/{child['id']}/history").json()
        parent_md = api.get("/api/sessions/webparent/export").text
        child_json = api.get(f"/api/sessions/{child['id']}/export", params={"format": "json"}).json()
        assert api.get("/api/sessions/nosuch/export").status_code == 404
    assert f"`{child['id']}` (done): WEBCHILD" in parent_md
    assert child_json["parent"] == "webparent" and "Saw the files." in json.dumps(child_json["events"])
    assert "WEBCHILD look around" in json.dumps(history)  # the brief, auditable from the browser
    listed = hearth("sessions", "--workspace", str(web.workspace))
    assert listed.code == 0, listed.stderr
    line = next(ln for ln in listed.stdout.splitlines() if ln.startswith(child["id"]))
    assert "[sub-agent of webparent]" in line
    exported = hearth("sessions", "export", child["id"], "--workspace", str(web.workspace))
    assert "WEBCHILD look around" in exported.stdout and "Saw the files." in exported.stdout


def test_a_childs_progress_is_live_in_the_parents_websocket(web: Web) -> None:
    web.model.add(call("delegate", objective="LIVECHILD list", deliverable="names"), done("Parent done."))
    web.model.route("LIVECHILD", call("ls", path="."), done("Listed."))
    with web.ws("/ws/liveparent") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        ws.send(json.dumps({"type": "message", "content": "delegate a listing"}))
        seen: list[dict[str, Any]] = []
        while not any(m["type"] == "done" and m["session"] == "liveparent" for m in seen):
            seen.append(json.loads(ws.recv(timeout=30)))
    child_id = next(m["session"] for m in seen if m["type"] == "session_started")
    child = [m for m in seen if m["session"] == child_id]
    kinds = [m["type"] for m in child]
    assert kinds[0] == "session_started" and child[0]["parent"] == "liveparent"
    assert "tool_call" in kinds and "tool_result" in kinds and kinds[-1] == "done"
    assert next(m for m in child if m["type"] == "tool_call")["tool"] == "ls"
    # live: all of it arrives before the parent hears the result of its `delegate`
    delegated = next(
        i for i, m in enumerate(seen) if m["type"] == "tool_result" and m["session"] == "liveparent"
    )
    assert max(i for i, m in enumerate(seen) if m["session"] == child_id) < delegated
    # the parent's own step numbering is not disturbed by the child's replies
    parent_steps = [m["iteration"] for m in seen if m["type"] == "thinking" and m["session"] == "liveparent"]
    assert parent_steps == [1, 2]


def test_the_model_of_a_role_is_switched_for_a_session_through_the_api(web: Web) -> None:
    web.model.add(done("one"))
    web.model.add(call("delegate", objective="APICHILD go", deliverable="x", role="reviewer"), done("two"))
    web.model.route("APICHILD", done("child"))
    with web.client() as api:
        assert api.post("/api/chat/modelled", json={"message": "hi"}, timeout=60).json()["status"] == "done"
        chosen = api.post("/api/sessions/modelled/model", json={"role": "main", "model": "other-model"})
        assert chosen.status_code == 200 and chosen.json()["model"] == "other-model"
        reviewer = api.post("/api/sessions/modelled/model", json={"role": "reviewer", "model": "rev-model"})
        assert reviewer.json() == {
            "role": "reviewer",
            "model": "rev-model",
            "server": "",
            "native_tools": None,
            "json_schema": False,
            "vision": False,
            "thinking": None,
        }
        bad = api.post("/api/sessions/modelled/model", json={"role": "astronaut", "model": "x"})
        assert bad.status_code == 400 and "Unknown role 'astronaut'" in bad.json()["detail"]
        assert api.post("/api/sessions/nosuch/model", json={"model": "x"}).status_code == 404
        assert api.get("/api/status").json()["sessions_in_memory"] == 0  # only the store holds it now
        roles = {r["role"]: r["model"] for r in api.get("/api/sessions/modelled/models").json()}
        assert roles["main"] == "other-model" and roles["reviewer"] == "rev-model" and roles["coder"] == ""
        out = api.post("/api/chat/modelled", json={"message": "delegate"}, timeout=60).json()
        assert out["status"] == "done", out
        history = api.get("/api/sessions/modelled/history").json()["events"]
    assert [(m["role"], m["model"]) for m in history if m["type"] == "model_chosen"] == [
        ("main", "other-model"),
        ("reviewer", "rev-model"),
    ]
    first, *later = web.model.requests
    assert first.get("model", "") == ""
    child = next(b for b in later if "APICHILD" in first_user(b))
    assert child["model"] == "rev-model"
    assert all(b["model"] == "other-model" for b in later if b is not child)


def test_the_sse_stream_and_the_openai_endpoint_keep_a_childs_events_apart(web: Web) -> None:
    web.model.add(call("delegate", objective="SSECHILD list", deliverable="names"), done("Parent answer."))
    web.model.route("SSECHILD", call("ls", path="."), done("Child answer."))
    seen: list[dict[str, Any]] = []
    with (
        web.client() as api,
        api.stream("POST", "/api/chat/sseparent/stream", json={"message": "go"}) as resp,
    ):
        for line in resp.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
    own = [m for m in seen if "session" not in m]
    child = [m for m in seen if "session" in m]
    assert [m["type"] for m in own if m["type"] == "done"] == ["done"] and own[-1]["type"] == "done"
    assert own[-1]["text"] == "Parent answer." and own[-1]["iterations"] == 2
    assert child and {m["type"] for m in child} >= {"session_started", "tool_call", "tool_result", "done"}
    assert child[0]["parent"] == "sseparent"

    web.model.add(call("delegate", objective="OAICHILD list", deliverable="names"), done("Parent says hi."))
    web.model.route("OAICHILD", call("ls", path="."), done("Child says hi."))
    body = {"model": "hearth", "stream": True, "messages": [{"role": "user", "content": "go"}]}
    content, reasoning = "", ""
    with web.client() as api, api.stream("POST", "/v1/chat/completions", json=body) as resp:
        for line in resp.iter_lines():
            if line.startswith("data: {"):
                for choice in json.loads(line[6:])["choices"]:
                    content += choice["delta"].get("content") or ""
                    reasoning += choice["delta"].get("reasoning_content") or ""
    assert content == "Parent says hi."  # the parent's answer, never the child's
    assert "] → ls" in reasoning and "[sub-agent" in reasoning
