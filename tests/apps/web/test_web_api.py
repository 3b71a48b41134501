"""The web server's HTTP and WebSocket API, over real HTTP, with the scripted model behind it."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from websupport import TOKEN, Web, receive_until, running_web


def _done(text: str = "All done.") -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


def _call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


# -- who may use it ---------------------------------------------------------------------------


def test_every_route_needs_the_token(web: Web) -> None:
    with web.client(token=None) as anon:
        for path in ("/api/status", "/api/sessions", "/api/usage", "/docs", "/openapi.json", "/v1/models"):
            assert anon.get(path).status_code == 401, path
        assert anon.post("/api/chat/x", json={"message": "hi"}).status_code == 401
        assert anon.get("/api/status", params={"token": TOKEN}).status_code == 401  # never in a URL
        assert anon.get("/api/status", headers={"Authorization": "Bearer wrong"}).status_code == 401
        page = anon.get("/")
        assert page.status_code == 200 and "Hearth" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
    with web.client() as api:
        assert api.get("/api/status").status_code == 200
        assert api.get("/docs").status_code == 200
    with pytest.raises(InvalidStatus) as refused:
        web.ws("/ws/s1", token=None).close()
    assert refused.value.response.status_code in (401, 403)


def test_pin_login_gives_an_httponly_cookie_and_wrong_pins_lock_out(web: Web) -> None:
    with web.client(token=None) as browser:
        assert (
            browser.post(
                "/api/login", json={"pin": "000000" if web.auth.pin != "000000" else "1"}
            ).status_code
            == 401
        )
        ok = browser.post("/api/login", json={"pin": web.auth.pin})
        assert ok.status_code == 200
        cookie = ok.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert browser.get("/api/sessions").status_code == 200
    with web.client(token=None) as attacker:
        for _ in range(5):
            attacker.post("/api/login", json={"pin": "x"})
        locked = attacker.post("/api/login", json={"pin": web.auth.pin})
        assert locked.status_code == 429 and "try again" in locked.json()["detail"]


def test_cross_site_requests_and_foreign_websockets_are_refused(web: Web) -> None:
    own = web.url
    with web.client(token=None) as browser:
        browser.post("/api/login", json={"pin": web.auth.pin})
        cookie = browser.cookies.get("hearth_auth")
        assert browser.post("/api/sessions").status_code == 403  # a cookie alone changes nothing
        evil = browser.post("/api/sessions", headers={"Origin": "http://evil.example"})
        assert evil.status_code == 403 and "Cross-site" in evil.json()["detail"]
        assert browser.post("/api/sessions", headers={"Origin": own}).status_code == 200
    with pytest.raises(InvalidStatus) as refused:
        web.ws("/ws/s1", token=None, origin="http://evil.example", cookie=cookie).close()
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):  # even with the token, a foreign page is refused
        web.ws("/ws/s1", origin="http://evil.example").close()
    with pytest.raises(InvalidStatus):  # a browser always sends an Origin
        web.ws("/ws/s1", token=None, cookie=cookie).close()
    with web.ws("/ws/s1", token=None, origin=own, cookie=cookie) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    with web.client() as api:  # DNS rebinding: a foreign Host is refused on loopback
        assert api.get("/api/status", headers={"Host": "evil.example"}).status_code == 421


# -- chat ------------------------------------------------------------------------------------------


def test_websocket_chat_streams_text_and_tool_calls(web: Web) -> None:
    web.model.add(
        ScriptedReply(
            text="Writing it now.",
            chunk_size=3,
            tool_calls=[ScriptedCall(name="write", arguments={"path": "hello.txt", "content": "hi\n"})],
        ),
        _done("Wrote **hello.txt**."),
    )
    with web.ws("/ws/first") as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["type"] == "hello" and hello["session"] == "first"
        assert [m["type"] for m in hello["history"]] == ["session_started"]
        ws.send(json.dumps({"type": "message", "content": "write hello.txt"}))
        seen = receive_until(ws, "done")
    kinds = [m["type"] for m in seen]
    assert (
        kinds.index("user_message")
        < kinds.index("tool_call")
        < kinds.index("tool_result")
        < kinds.index("done")
    )
    deltas = "".join(m["text"] for m in seen if m["type"] == "delta" and m["kind"] == "text")
    assert "Writing it now." in deltas and len([m for m in seen if m["type"] == "delta"]) >= 5
    call = next(m for m in seen if m["type"] == "tool_call")
    result = next(m for m in seen if m["type"] == "tool_result")
    assert call["tool"] == "write" and result["tool_call_id"] == call["tool_call_id"] and result["success"]
    assert result["duration_ms"] >= 0
    done = seen[-1]
    assert done["status"] == "done" and done["text"] == "Wrote **hello.txt**." and done["iterations"] == 2
    assert (web.workspace / "hello.txt").read_text() == "hi\n"
    with web.client() as api:  # the same story from the history, for a reload
        replay = api.get("/api/sessions/first/history").json()["events"]
    assert [
        m["type"] for m in replay if m["type"] in ("user_message", "tool_call", "tool_result", "text", "done")
    ] == [
        m["type"] for m in seen if m["type"] in ("user_message", "tool_call", "tool_result", "text", "done")
    ]


def test_permission_prompt_allow_and_deny_with_a_message(web: Web) -> None:
    web.model.add(
        _call("shell", command="touch made.txt"),
        _call("shell", command="rm -rf notes"),
        _done(),
    )
    (web.workspace / "notes").mkdir()
    with web.ws("/ws/perm") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "make a file, then clean up"}))
        ask = receive_until(ws, "approval_request")[-1]
        assert ask["tool"] == "shell" and ask["shown"] == "touch made.txt" and ask["reason"]
        ws.send(json.dumps({"type": "approve", "id": ask["id"], "decision": "allow"}))
        second = receive_until(ws, "approval_request")[-1]
        assert second["shown"] == "rm -rf notes"
        ws.send(
            json.dumps(
                {"type": "approve", "id": second["id"], "decision": "deny", "message": "keep my notes"}
            )
        )
        seen = receive_until(ws, "done")
    assert (web.workspace / "made.txt").exists() and (web.workspace / "notes").exists()
    denied = [m for m in seen if m["type"] == "permission" and not m["allowed"]]
    assert denied and denied[0]["by"] == "user"
    told = json.dumps(web.model.requests[-1]["messages"][-1])
    assert "keep my notes" in told


def test_with_no_one_watching_approval_is_refused_headlessly(web: Web) -> None:
    web.model.add(_call("shell", command="touch nope.txt"), _done("Could not."))
    with web.client() as api:
        out = api.post("/api/chat/quiet", json={"message": "make nope.txt"}).json()
        assert out["status"] == "done"
        audit = [
            m for m in api.get("/api/sessions/quiet/history").json()["events"] if m["type"] == "permission"
        ]
    assert audit[0]["allowed"] is False and audit[0]["by"] == "headless"
    assert not (web.workspace / "nope.txt").exists()


def test_busy_session_refuses_a_second_message_and_stop_interrupts(web: Web) -> None:
    web.model.add(ScriptedReply(text="x" * 400, chunk_size=2, delay=0.02), _done("after the stop"))
    with web.ws("/ws/busy") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "long one"}))
        receive_until(ws, "delta")
        ws.send(json.dumps({"type": "message", "content": "another"}))
        refused = receive_until(ws, "error")[-1]
        assert "busy" in refused["message"]
        with web.client() as api:
            blocked = api.post("/api/chat/busy", json={"message": "more"})
            assert blocked.status_code == 409 and "busy" in blocked.json()["detail"]
        ws.send(json.dumps({"type": "stop"}))
        done = receive_until(ws, "done")[-1]
        assert done["status"] == "interrupted"
        ws.send(json.dumps({"type": "message", "content": "go on"}))  # the session stays usable
        assert receive_until(ws, "done")[-1]["status"] == "done"


def test_reconnecting_replays_history_and_open_questions(web: Web) -> None:
    web.model.add(_call("shell", command="touch later.txt"), _done())
    with web.ws("/ws/again") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "make later.txt"}))
        asked = receive_until(ws, "approval_request")[-1]
    with web.ws("/ws/again") as ws:  # a reload while the question is open
        hello = json.loads(ws.recv(timeout=10))
        assert hello["running"] is True and [m["type"] for m in hello["history"]][:2] == [
            "session_started",
            "user_message",
        ]
        again = receive_until(ws, "approval_request")[-1]
        assert again["id"] == asked["id"]
        ws.send(json.dumps({"type": "approve", "id": again["id"], "decision": "allow"}))
        assert receive_until(ws, "done")[-1]["status"] == "done"
    assert (web.workspace / "later.txt").exists()


def test_bad_client_messages_get_clear_errors(web: Web) -> None:
    with web.ws("/ws/bad") as ws:
        receive_until(ws, "hello")
        for raw, words in (
            ("not json", "JSON"),
            (json.dumps({"type": "dance"}), "Unknown message type"),
            (json.dumps({"type": "message"}), "content"),
            (json.dumps({"type": "message", "content": "x" * 200_001}), "at most 200000 characters"),
            (json.dumps({"type": "set_mode", "mode": "yolo"}), "'auto', 'normal', 'manual' or 'plan'"),
            (json.dumps({"type": "approve", "id": "q_x", "decision": "allow"}), "No open question"),
        ):
            ws.send(raw)
            assert words in receive_until(ws, "error")[-1]["message"]
        ws.send(json.dumps({"type": "ping"}))
        assert receive_until(ws, "pong")
    with web.client() as api:
        bad = api.post("/api/chat/bad%20id!", json={"message": "x"})
        assert bad.status_code == 400 and "session id" in bad.json()["detail"]
        assert api.post("/api/chat/ok", json={"message": ""}).status_code == 422
        assert api.get("/api/sessions/nope/history").status_code == 404


# -- the rest of the API ---------------------------------------------------------------------------


def test_sessions_usage_activity_models_tools(web: Web) -> None:
    web.model.add(_call("read", path="a.txt"), _done("read it"))
    (web.workspace / "a.txt").write_text("alpha\n")
    with web.client() as api, web.ws("/ws/activity") as feed:
        out = api.post("/api/chat/s-one", json={"message": "read a.txt"}).json()
        assert out["status"] == "done" and out["text"] == "read it" and out["usage"]["prompt_tokens"] > 0
        live = receive_until(feed, "done")
        assert any(m["type"] == "tool_result" and m["session"] == "s-one" for m in live)
        listed = api.get("/api/sessions").json()
        assert (
            listed[0]["id"] == "s-one"
            and listed[0]["status"] == "done"
            and listed[0]["title"] == "read a.txt"
        )
        # the reflection after the task is a request too: once it is recorded, three in all
        deadline = time.monotonic() + 30
        while not any(
            m["type"] == "reflected" for m in api.get("/api/sessions/s-one/history").json()["events"]
        ):
            assert time.monotonic() < deadline, "no reflection was recorded"
            time.sleep(0.1)
        usage = api.get("/api/usage", params={"range": "7d"}).json()
        assert usage["requests"] == 3 and len(usage["days"]) == 1 and usage["prompt_tokens"] > 0
        assert api.get("/api/usage", params={"range": "year"}).status_code == 422
        activity = api.get("/api/activity", params={"limit": 10}).json()
        assert any(a["type"] == "tool_result" and a["tool"] == "read" for a in activity)
        assert api.get("/api/sessions/s-one/tasks").json()["tasks"] == []
        models = api.get("/api/models").json()
        assert models["models"] == ["scripted-model"]
        assert api.post("/api/models/select", json={"model_id": "other"}).json()["current"] == "other"
        tools = {t["name"]: t for t in api.get("/api/tools").json()}
        assert tools["read"]["read_only"] and "path" in json.dumps(tools["read"]["parameters"])
        status = api.get("/api/status").json()
        assert status["context_window"] == 8192 and status["sandbox"]
        assert status["sessions_in_memory"] == 0  # done and unwatched: only the store keeps it
        assert api.delete("/api/sessions/s-one").json() == {"ok": True}
        assert api.get("/api/sessions").json() == []


def test_files_are_served_inert_and_secrets_stay_hidden(web: Web) -> None:
    (web.workspace / "page.html").write_text("<script>alert(1)</script>")
    (web.workspace / ".env").write_text("API_KEY=sk-secret\n")
    with web.client() as api:
        names = [f["path"] for f in api.get("/api/files").json()["files"]]
        assert "page.html" in names and ".env" not in names
        raw = api.get("/api/files/raw", params={"path": "page.html"})
        assert raw.headers["content-type"].startswith("text/plain")
        assert raw.headers["content-security-policy"].startswith("sandbox")
        preview = api.get("/api/files/raw", params={"path": "page.html", "preview": "1"})
        assert preview.headers["content-type"].startswith("text/html")
        assert preview.headers["content-security-policy"].startswith("sandbox")  # opaque origin, no scripts
        secret = api.get("/api/files/raw", params={"path": ".env"})
        assert secret.status_code == 403 and "sk-secret" not in secret.text
        assert api.get("/api/files/raw", params={"path": "../../etc/passwd"}).status_code == 403
        (web.workspace / ".hearth").mkdir(exist_ok=True)
        (web.workspace / ".hearth" / "checkpoints.txt").write_text("API_KEY=sk-secret")
        hidden = api.get("/api/files/raw", params={"path": ".hearth/checkpoints.txt"})
        assert hidden.status_code == 403 and "sk-secret" not in hidden.text


def test_sessions_run_at_once_and_share_the_store_with_a_one_shot_run(
    web: Web, hearth: Any, tmp_path: Path
) -> None:
    def by_task(body: dict[str, Any]) -> ScriptedReply:
        task = next(m["content"] for m in body["messages"] if m["role"] == "user")
        time.sleep(0.2)
        return ScriptedReply(text=f"answer to {task}\nTASK_COMPLETE")

    web.model.add(*[by_task] * 4)
    results: dict[str, Any] = {}

    def chat(name: str) -> None:
        with web.client() as api:
            results[name] = api.post(f"/api/chat/{name}", json={"message": name}).json()

    threads = [threading.Thread(target=chat, args=(n,)) for n in ("one", "two", "three")]
    for t in threads:
        t.start()
    cli = hearth("run", "--json", "-w", str(web.workspace), "four", env={"HEARTH_LLM_URL": web.model.url})
    for t in threads:
        t.join(timeout=30)
    assert cli.code == 0, cli.stderr
    assert {n: r["text"] for n, r in results.items()} == {
        n: f"answer to {n}" for n in ("one", "two", "three")
    }
    with web.client() as api:
        sessions = api.get("/api/sessions").json()
        assert len(sessions) == 4 and {s["status"] for s in sessions} == {"done"}
        for s in sessions:
            kinds = [m["type"] for m in api.get(f"/api/sessions/{s['id']}/history").json()["events"]]
            assert kinds == ["session_started", "user_message", "thinking", "text", "usage", "done"]


def test_token_never_reaches_logs_or_events(web: Web, capfd: pytest.CaptureFixture[str]) -> None:
    web.model.add(_done())
    with web.client() as api:
        api.post("/api/chat/t", json={"message": "hello"})
        history = api.get("/api/sessions/t/history").text
    out = capfd.readouterr()
    assert TOKEN not in out.out + out.err + history
    assert TOKEN not in json.dumps(web.model.requests)


def test_streaming_chat_over_sse_with_an_approval_by_http(web: Web) -> None:
    web.model.add(_call("shell", command="touch sse.txt"), _done("made it"))
    seen: list[dict[str, Any]] = []
    with (
        web.client() as api,
        api.stream("POST", "/api/chat/sse/stream", json={"message": "make sse.txt"}) as resp,
    ):
        assert resp.headers["content-type"].startswith("text/event-stream")
        for line in resp.iter_lines():
            if not line.startswith("data: "):
                continue
            message = json.loads(line[6:])
            seen.append(message)
            if message["type"] == "approval_request":
                with web.client() as other:
                    answer = other.post(
                        f"/api/sessions/sse/approvals/{message['id']}", json={"decision": "allow"}
                    )
                    assert answer.json() == {"ok": True}
    kinds = [m["type"] for m in seen]
    assert kinds[0] == "user_message" and kinds[-1] == "done" and "answered" in kinds
    assert seen[-1]["text"] == "made it" and (web.workspace / "sse.txt").exists()


def test_requests_to_the_model_are_limited_across_sessions(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_flight = peak = 0
    lock = threading.Lock()

    def slow(body: dict[str, Any]) -> ScriptedReply:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.3)
        with lock:
            in_flight -= 1
        return _done("ok")

    server.add(*[slow] * 5)
    with running_web(workspace, home, server, monkeypatch, model_parallel=2) as web:
        results: list[str] = []

        def chat(i: int) -> None:
            with web.client() as api:
                results.append(api.post(f"/api/chat/p{i}", json={"message": "go"}).json()["status"])

        threads = [threading.Thread(target=chat, args=(i,)) for i in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    assert results == ["done"] * 5 and peak == 2


def test_a_waiting_session_shows_its_wake_time_in_the_browser_list(web: Web) -> None:
    web.model.add(ScriptedReply(text="WAIT: 2030-01-02T03:04:05+00:00: the build takes an hour"))
    with web.client() as api:
        out = api.post("/api/chat/later", json={"message": "check the build when it is done"}).json()
        assert out["status"] == "waiting" and out["wake_at"].startswith("2030-01-02T03:04:05")
        listed = {s["id"]: s for s in api.get("/api/sessions").json()}
    assert listed["later"]["status"] == "waiting" and listed["later"]["wake_at"].startswith(
        "2030-01-02T03:04:05"
    )


def test_the_api_docs_page_loads_everything_from_this_server(web: Web) -> None:
    with web.client() as api:
        page = api.get("/docs")
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        html = page.text
        assert "<script>" not in html and "cdn" not in html.lower()  # no inline script, no outside host
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
        for asset in assets:
            assert asset.startswith("/"), asset
            assert api.get(asset).status_code == 200, asset
        assert "SwaggerUIBundle" in api.get("/static/docs.js").text
        assert api.get("/redoc").status_code == 404  # FastAPI's own page loads from a CDN
