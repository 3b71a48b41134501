"""Uploads into the workspace over the real HTTP API (and in Chromium), the file tree, and the
WebSocket's `clear`: a real `hearth web` on 127.0.0.1 with the scripted model server behind it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from requirements import CHROMIUM, need
from support import state_of
from websupport import TOKEN, Web, receive_until, running_web

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def put(web: Web, path: str, data: bytes, **params: str):  # type: ignore[no-untyped-def]
    with web.client() as api:
        return api.put("/api/files/upload", params={"path": path, **params}, content=data)


def test_an_upload_lands_in_the_workspace_and_is_listed(web: Web) -> None:
    res = put(web, "uploads/shot.png", PNG)
    assert res.status_code == 200, res.text
    assert res.json() == {"path": "uploads/shot.png", "size": len(PNG), "replaced": False}
    assert (web.workspace / "uploads" / "shot.png").read_bytes() == PNG
    with web.client() as api:
        assert "uploads/shot.png" in [f["path"] for f in api.get("/api/files").json()["files"]]
        shown = api.get("/api/files/raw", params={"path": "uploads/shot.png"})
        assert shown.content == PNG and shown.headers["content-type"] == "image/png"


def test_an_existing_file_is_replaced_only_when_asked(web: Web) -> None:
    (web.workspace / "notes.txt").write_text("mine\n")
    res = put(web, "notes.txt", b"theirs\n")
    assert res.status_code == 409 and "already exists" in res.json()["detail"]
    assert (web.workspace / "notes.txt").read_text() == "mine\n"
    res = put(web, "notes.txt", b"theirs\n", replace="true")
    assert res.status_code == 200 and res.json()["replaced"] is True
    assert (web.workspace / "notes.txt").read_text() == "theirs\n"


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("../escape.txt", "outside the workspace"),
        ("uploads/../../escape.txt", "outside the workspace"),
        ("/tmp/escape.txt", "outside the workspace"),
        ("~/escape.txt", "outside"),
        (".env", "secret"),
        ("config/.env.production", "secret"),
        ("keys/id_rsa", "secret"),
        (".hearth/sessions.db", ".hearth"),
        (".hearth/config.toml", "control file"),
        (".git/hooks/pre-commit", "control file"),
        ("sub/.git/config", "control file"),
        (".vscode/tasks.json", "control file"),
        ("mcp.json", "control file"),
        ("outlink/escape.txt", "outside the workspace"),  # a symlink in the workspace pointing out
        ("bad\x01name.txt", "not a usable file name"),
        ("folder/", "names a folder"),
    ],
)
def test_uploads_that_escape_or_touch_secrets_and_control_files_are_refused(
    web: Web, tmp_path: Path, path: str, reason: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (web.workspace / "outlink").symlink_to(outside)
    (web.workspace / ".git").mkdir()
    res = put(web, path, b"#!/bin/sh\necho pwned\n")
    assert res.status_code in (400, 403), res.text
    assert reason in res.json()["detail"]
    assert not list(outside.iterdir())
    assert not (tmp_path / "escape.txt").exists() and not Path("/tmp/escape.txt").exists()
    assert not (web.workspace / ".git" / "hooks").exists() and not (web.workspace / ".env").exists()


def test_a_hardlink_to_a_secret_is_not_written_through(web: Web) -> None:
    (web.workspace / ".env").write_text("API_KEY=sk-live\n")
    os.link(web.workspace / ".env", web.workspace / "innocent.txt")
    res = put(web, "innocent.txt", b"overwritten\n", replace="true")
    assert res.status_code == 403
    assert (web.workspace / ".env").read_text() == "API_KEY=sk-live\n"


def test_a_big_upload_is_refused_and_nothing_is_written(web: Web) -> None:
    res = put(web, "big.bin", b"\x00" * ((25 << 20) + 1))
    assert res.status_code == 413 and "25 MB" in res.json()["detail"]
    assert not (web.workspace / "big.bin").exists()


def test_uploads_need_the_login(web: Web) -> None:
    with web.client(token=None) as anon:
        assert anon.put("/api/files/upload", params={"path": "x.txt"}, content=b"x").status_code == 401
    assert not (web.workspace / "x.txt").exists()


@pytest.fixture
def denying(workspace: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Web]:
    with (
        ScriptedServer() as model,
        running_web(
            workspace, home, model, monkeypatch, deny=["write(private/**)"], ask=["write(src/**)"]
        ) as w,
    ):
        yield w


def test_deny_rules_hold_for_uploads_and_ask_rules_do_not_ask_the_uploader(denying: Web) -> None:
    res = put(denying, "private/plan.txt", b"x")
    assert res.status_code == 403 and "denied by the rule" in res.json()["detail"]
    assert not (denying.workspace / "private").exists()
    assert put(denying, "src/main.py", b"print(1)\n").status_code == 200


def test_websocket_clear_starts_a_new_session(web: Web) -> None:
    with web.ws("/ws/first-one") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "clear"}))
        (cleared,) = [m for m in receive_until(ws, "cleared") if m["type"] == "cleared"]
    assert cleared["session"] == "first-one" and cleared["new_session"] != "first-one"
    with web.ws(f"/ws/{cleared['new_session']}") as ws:
        hello = receive_until(ws, "hello")[-1]
        assert hello["session"] == cleared["new_session"]
        assert [m["type"] for m in hello["history"]] == ["session_started"]  # nothing said yet


def test_upload_and_file_tree_in_the_browser(web: Web, tmp_path: Path) -> None:
    need("chromium")
    from playwright.sync_api import expect, sync_playwright

    (web.workspace / "docs" / "deep").mkdir(parents=True)
    (web.workspace / "docs" / "deep" / "guide.md").write_text("# Guide\n")
    (web.workspace / ".env").write_text("API_KEY=sk-live\n")
    photo = tmp_path / "photo.png"
    photo.write_bytes(PNG)
    hook = tmp_path / "pre-commit"
    hook.write_text("#!/bin/sh\necho pwned\n")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(web.url + "/")
        page.fill("#pin", web.auth.pin)
        page.click("text=Log in")
        page.click("#open-files")
        expect(page.locator("#panel-body summary", has_text="docs/")).to_be_visible()
        expect(page.locator("#panel-body summary", has_text="deep/")).to_be_visible()
        expect(page.locator("#panel-body")).to_contain_text("guide.md (")
        expect(page.locator("#panel-body")).not_to_contain_text(".env")
        page.set_input_files("#upload-input", str(photo))
        expect(page.locator("#upload-status")).to_have_text("Uploaded uploads/photo.png")
        assert (web.workspace / "uploads" / "photo.png").read_bytes() == PNG
        expect(page.locator("#input")).to_have_value("Uploaded: uploads/photo.png")
        page.get_by_text("photo.png (").click()
        expect(page.locator("#panel-body img.file-image")).to_have_attribute("alt", "uploads/photo.png")
        page.fill("#upload-folder", ".git/hooks")
        page.set_input_files("#upload-input", str(hook))
        expect(page.locator("#upload-status")).to_contain_text("control file")
        assert not (web.workspace / ".git" / "hooks").exists()
        browser.close()
    assert errors == []
    assert TOKEN  # the browser logged in with the PIN, not the API token


@pytest.fixture
def many_models(workspace: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Web]:
    more = ["Qwen2.5-Coder-7B-Instruct", "llama-3.1-8b-instruct", "qwen2.5-coder-32b-instruct"]
    with ScriptedServer(more_models=more) as model, running_web(workspace, home, model, monkeypatch) as w:
        yield w


def test_models_search_matches_every_word_in_any_case(many_models: Web) -> None:
    with many_models.client() as api:
        found = api.get("/api/models/search", params={"q": "QWEN coder"}).json()
        assert found["models"] == ["Qwen2.5-Coder-7B-Instruct", "qwen2.5-coder-32b-instruct"]
        assert api.get("/api/models/search", params={"q": "llama 8b"}).json()["models"] == [
            "llama-3.1-8b-instruct"
        ]
        assert api.get("/api/models/search", params={"q": "mistral"}).json()["models"] == []
        assert len(api.get("/api/models/search").json()["models"]) == 4


def test_websocket_clear_waits_for_a_running_task(web: Web) -> None:
    import time

    def slow(body: dict[str, object]) -> ScriptedReply:
        time.sleep(1.5)
        return ScriptedReply(text="done. TASK_COMPLETE")

    web.model.add(slow)
    with web.ws("/ws/busy-one") as ws:
        receive_until(ws, "hello")
        ws.send(json.dumps({"type": "message", "content": "take your time"}))
        receive_until(ws, "user_message")
        ws.send(json.dumps({"type": "clear"}))
        error = receive_until(ws, "error")[-1]
        assert "running a task" in error["message"]
        receive_until(ws, "done")


def test_deep_work_from_the_chat_box_shows_the_budget(web: Web) -> None:
    need("chromium")
    from playwright.sync_api import expect, sync_playwright

    from hearth.core.events import BudgetSet
    from hearth.store.sessions import SessionStore

    web.model.add(ScriptedReply(text="Deep thoughts.\nTASK_COMPLETE"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(web.url + "/")
        page.fill("#pin", web.auth.pin)
        page.click("text=Log in")
        expect(page.locator("#budget")).to_be_hidden()
        page.check("#deep-work")
        page.fill("#budget", "50000")
        page.fill("#input", "think hard")
        page.click("#send")
        expect(page.locator(".line.done")).to_have_text("✓ done")
        meter = page.locator("#budget-meter")
        expect(meter).to_be_visible()
        expect(meter).to_contain_text("/ 50000 tokens")
        used = int(meter.inner_text().split()[1])
        page.reload()
        page.wait_for_selector(".line.done")
        expect(meter).to_have_text(f"budget: {used} / 50000 tokens")  # the same after a reload
        browser.close()
    assert used > 0
    store = SessionStore(state_of(web.workspace) / "sessions.db")
    [info] = store.list_sessions()[:1]
    assert [e.tokens for e in store.events(info.id) if isinstance(e, BudgetSet)] == [50000]
