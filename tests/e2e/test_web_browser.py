"""The web UI in a real browser: Playwright driving Debian's Chromium against a real server.

A screenshot of the main screen is saved to test-artifacts/web-main.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from hearth.testing.script import ScriptedCall, ScriptedReply
from requirements import CHROMIUM, need_module
from support import ROOT
from websupport import Web

ARTIFACTS = ROOT / "test-artifacts"

need_module("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, web: Web) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(web.url + "/")
    pg.fill("#pin", web.auth.pin)
    pg.click("text=Log in")
    expect(pg.locator("#app")).to_be_visible()
    yield pg
    context.close()
    assert errors == [], errors


def _send(page: Page, text: str) -> None:
    page.fill("#input", text)
    page.click("#send")


def test_task_with_streaming_permission_history_and_session_browser(page: Page, web: Web) -> None:
    web.model.add(
        ScriptedReply(
            text="Let me create the file you asked for, carefully and step by step.",
            chunk_size=2,
            delay=0.03,
            tool_calls=[ScriptedCall(name="shell", arguments={"command": "touch made.txt"})],
        ),
        ScriptedReply(text="Created **made.txt** for you.\nTASK_COMPLETE"),
    )
    _send(page, "create made.txt")
    expect(page.locator(".msg.user")).to_have_text("create made.txt")
    expect(page.locator(".msg.assistant.streaming")).to_be_visible()  # text arrives while it streams
    card = page.locator(".question")
    expect(card).to_contain_text("shell needs your approval")
    expect(card.locator("pre")).to_have_text("touch made.txt")
    card.get_by_text("Allow once").click()
    tool = page.locator("details.tool")
    expect(tool).to_have_class("tool ok")
    expect(tool.locator(".name")).to_have_text("shell")
    expect(page.locator(".msg.assistant strong")).to_have_text("made.txt")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    assert (web.workspace / "made.txt").exists()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-main.png"))

    page.reload()  # history replays
    expect(page.locator(".msg.user")).to_have_text("create made.txt")
    expect(page.locator("details.tool.ok .name")).to_have_text("shell")
    expect(page.locator(".msg.assistant").last).to_contain_text("Created made.txt for you.")

    page.click("#new-session")
    expect(page.locator(".msg")).to_have_count(0)
    entry = page.locator("#session-list li").first
    expect(entry.locator(".title")).to_have_text("create made.txt")
    expect(entry.locator(".badge")).to_have_text("done")
    entry.click()
    expect(page.locator(".msg.user")).to_have_text("create made.txt")


def test_stop_interrupts_a_running_step(page: Page, web: Web) -> None:
    web.model.add(ScriptedReply(text="word " * 300, chunk_size=5, delay=0.02))
    _send(page, "write a long essay")
    expect(page.locator(".msg.assistant.streaming")).to_be_visible()
    expect(page.locator("#stop")).to_be_visible()
    page.click("#stop")
    expect(page.locator(".line.done")).to_contain_text("■ stopped")
    expect(page.locator("#stop")).to_be_hidden()


def test_model_output_cannot_run_script_in_the_page(page: Page, web: Web) -> None:
    web.model.add(
        ScriptedReply(
            text=(
                'Here: <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2"> '
                "[click](javascript:window.pwned=3) **bold**\nTASK_COMPLETE"
            )
        )
    )
    _send(page, "say something nasty")
    reply = page.locator(".msg.assistant")
    expect(reply).to_contain_text("<script>window.pwned = 1</script>")
    expect(reply).to_contain_text('<img src=x onerror="window.pwned = 2">')
    assert reply.locator("script, img, a").count() == 0
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None


def test_plan_approval_with_an_edited_plan(page: Page, web: Web) -> None:
    web.model.add(
        ScriptedReply(text="1. Look at the folder\n2. Write notes.txt\nTASK_COMPLETE"),
        ScriptedReply(
            tool_calls=[ScriptedCall(name="write", arguments={"path": "notes.txt", "content": "n\n"})]
        ),
        ScriptedReply(tool_calls=[ScriptedCall(name="plan_complete_step", arguments={"step": 1})]),
        ScriptedReply(text="Done as planned.\nTASK_COMPLETE"),
    )
    page.check("#plan-first")
    _send(page, "make notes")
    card = page.locator(".question")
    expect(card).to_contain_text("Approve the plan?")
    expect(card.locator("textarea")).to_have_value("Look at the folder\nWrite notes.txt")
    card.locator("textarea").fill("Write notes.txt")
    card.get_by_text("Approve (with edits)").click()
    expect(page.locator(".line.done")).to_have_count(2)  # the plan's, then the work's
    expect(page.locator(".line.done").last).to_have_text("✓ done")
    assert (web.workspace / "notes.txt").read_text() == "n\n"
    session = page.evaluate("location.hash").removeprefix("#s=")
    with web.client() as api:  # the plan carried out is the one the person edited
        plan = api.get(f"/api/sessions/{session}/tasks").json()["plan"]
    assert [(p["text"], p["done"]) for p in plan] == [("Write notes.txt", True)]


def test_tool_explorer_usage_and_files(page: Page, web: Web) -> None:
    (web.workspace / "index.html").write_text("<h1>Hi</h1><script>parent.pwned = 1</script>")
    web.model.add(ScriptedReply(text="ok\nTASK_COMPLETE"))
    _send(page, "hello")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    page.click("#open-tools")
    # 22 default, create_patch, 3 memory, get_time, data_view, python (bwrap isolates)
    expect(page.locator("#panel-body .tool-entry")).to_have_count(32)
    expect(page.locator("#panel-body")).to_contain_text("shell")
    page.click("#panel-close")
    page.click("#open-usage")
    expect(page.locator(".chart .bar")).to_have_count(1)
    page.click("#panel-close")
    page.click("#open-files")
    page.get_by_text("index.html (").click()
    expect(page.locator("#panel-body pre")).to_contain_text("<script>parent.pwned = 1</script>")
    page.get_by_text("Preview (sandboxed, no scripts)").click()
    frame = page.frame_locator("iframe.preview")
    expect(frame.locator("h1")).to_have_text("Hi")
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None


def test_usable_on_a_phone(browser: Browser, web: Web) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.fill("#pin", web.auth.pin)
    page.click("text=Log in")
    expect(page.locator("#input")).to_be_visible()
    expect(page.locator("#sessions")).to_be_hidden()
    page.click("#toggle-sessions")
    expect(page.locator("#sessions")).to_be_visible()
    box = page.locator("#composer").bounding_box()
    assert box is not None and box["width"] <= 390 and box["y"] + box["height"] <= 844
    context.close()


@pytest.fixture
def mcp_config(home: Path, workspace: Path) -> None:
    """Written before the web server starts: one server that cannot start, one that works."""
    import json

    folder = home / ".config" / "hearth"
    folder.mkdir(parents=True, exist_ok=True)
    servers = {"broken": {"command": "/nonexistent/server"}, "off": {"command": "x", "enabled": False}}
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


def test_tool_explorer_shows_each_mcp_server_and_why_one_failed(
    mcp_config: None, page: Page, web: Web
) -> None:
    with web.client() as api:  # it fails in the background, soon after the server starts
        for _ in range(100):
            if "failed" in " ".join(api.get("/api/status").json()["mcp_servers"]):
                break
            page.wait_for_timeout(100)
    page.click("#open-tools")
    expect(page.locator("#panel-body .mcp-server")).to_have_count(2)
    expect(page.locator("#panel-body .mcp-server").first).to_contain_text("broken (stdio): failed")
    expect(page.locator("#panel-body .mcp-server").last).to_contain_text("off (): disabled")
    expect(page.locator("#panel-body")).to_contain_text("mcp_tools")
