"""The web UI as a newcomer meets it, in Chromium (Playwright) at desktop and phone size: a session
that waits for the person says so, the phone layout fits, settings and a new scheduled job from the
page, no pile of empty sessions, and no finish marker shown. Screenshots go to test-artifacts/."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from hearth.testing.script import ScriptedCall, ScriptedReply
from support import ROOT
from websupport import Web

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
PHONE: ViewportSize = {"width": 390, "height": 844}

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError(
            "CI must install Debian's chromium for the browser tests (apt-get install chromium)"
        )
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def _open(browser: Browser, web: Web, *, phone: bool = False) -> Page:
    if phone:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(web.url + "/")
    page.fill("#pin", web.auth.pin)
    page.click("text=Log in")
    expect(page.locator("#app")).to_be_visible()
    return page


def _close(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert errors == [], errors


def _send(page: Page, text: str) -> None:
    page.fill("#input", text)
    page.click("#send")


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _approval_run(web: Web) -> None:
    web.model.add(
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments={"command": "touch made.txt"})]),
        ScriptedReply(text="Created made.txt.\nTASK_COMPLETE"),
    )


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_session_waiting_for_approval_says_so_and_its_card_comes_before_the_result(
    browser: Browser, web: Web, phone: bool
) -> None:
    page = _open(browser, web, phone=phone)
    _approval_run(web)
    _send(page, "create made.txt")
    card = page.locator(".question")
    expect(card).to_contain_text("shell needs your approval")
    with web.client() as api:
        [listed] = [s for s in api.get("/api/sessions").json() if s["title"] == "create made.txt"]
    assert listed["status"] == "needs_you"
    if phone:
        page.click("#toggle-sessions")
    badge = page.locator("#session-list li", has_text="create made.txt").locator(".badge")
    expect(badge).to_have_text("waits for you")
    _shot(page, f"web-waiting-{'phone' if phone else 'desktop'}")
    if phone:
        page.click("#toggle-sessions")
        _shot(page, "web-approval-phone")
        deny = card.get_by_text("Deny", exact=True)
        box = deny.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    card.get_by_text("Allow once").click()
    expect(page.locator(".line.done")).to_have_text("✓ done")
    tool = page.locator("details.tool")
    expect(tool).to_have_class("tool ok")
    # the card that gated the call is drawn before the call's result
    assert page.evaluate(
        "() => !!(document.querySelector('.question').compareDocumentPosition("
        "document.querySelector('details.tool pre.output')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    if phone:
        page.click("#toggle-sessions")
    expect(badge).to_have_text("done")
    _close(page)


def test_on_a_phone_the_header_is_one_row_and_long_text_stays_in_its_bubble(
    browser: Browser, web: Web
) -> None:
    page = _open(browser, web, phone=True)
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] <= 56, header  # one row of controls
    word = "x" * 300
    url = "https://example.org/" + "/".join(["a-long-path-segment"] * 12)
    web.model.add(ScriptedReply(text=f"Here: {word}\n\nAnd {url}\n\n`{word}`\nTASK_COMPLETE"))
    _send(page, f"say {word}")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    for bubble in page.locator(".msg").all():
        fits = bubble.evaluate("n => n.scrollWidth <= n.clientWidth + 1")
        box = bubble.bounding_box()
        assert fits and box is not None and box["x"] + box["width"] <= PHONE["width"], box
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing makes the page scroll sideways
    _shot(page, "web-phone-long-text")
    _close(page)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_settings_at_a_glance_and_a_scheduled_job_added_from_the_page(
    browser: Browser, web: Web, phone: bool
) -> None:
    page = _open(browser, web, phone=phone)
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] <= 56, header  # one row at either size
    if phone:  # what a phone needs first is on screen: the sessions and a new session
        for control in ("#toggle-sessions", "#new-session"):
            box = page.locator(control).bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"], control
    page.click("#open-settings")
    body = page.locator("#panel-body")
    expect(body.locator("[data-setting=model]")).to_contain_text(web.model.url.removesuffix("/v1"))
    expect(body).to_contain_text("normal")  # the permission mode
    expect(body.locator("[data-setting=sandbox]")).not_to_be_empty()
    expect(body.locator("[data-setting=protects]")).to_contain_text("files")
    _shot(page, f"web-settings-{'phone' if phone else 'desktop'}")
    page.click("#panel-close")
    page.click("#open-jobs")
    form = page.locator("form.add-job")
    form.locator("[name=id]").fill("nightly")
    form.locator("[name=schedule]").fill("0 3 * * *")
    form.locator("[name=prompt]").fill("Run the tests and tell me what failed")
    form.locator("button[type=submit]").click()
    row = page.locator("table.jobs tr[data-job=nightly]")
    expect(row).to_contain_text("0 3 * * *")
    _shot(page, f"web-jobs-{'phone' if phone else 'desktop'}")
    with web.client() as api:
        jobs = api.get("/api/cron").json()["jobs"]
    assert [(j["id"], j["prompt"]) for j in jobs] == [("nightly", "Run the tests and tell me what failed")]
    form.locator("[name=id]").fill("bad")
    form.locator("[name=schedule]").fill("not a schedule")
    form.locator("[name=prompt]").fill("x")
    form.locator("button[type=submit]").click()
    expect(page.locator("#panel-body .error")).to_be_visible()  # the reason, on the page
    _close(page)


def test_empty_sessions_do_not_pile_up_in_the_list(browser: Browser, web: Web) -> None:
    page = _open(browser, web)
    web.model.add(ScriptedReply(text="Hi.\nTASK_COMPLETE"))
    _send(page, "hello")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    for _ in range(3):
        page.click("#new-session")
        page.reload()
        expect(page.locator("#app")).to_be_visible()
    with web.client() as api:
        for _ in range(3):
            api.post("/api/sessions")
        listed = api.get("/api/sessions").json()
    assert [s["title"] for s in listed] == ["hello"]
    page.click("#refresh-sessions")
    expect(page.locator("#session-list li")).to_have_count(1)
    _close(page)


def test_the_finish_marker_is_never_shown_even_while_streaming(browser: Browser, web: Web) -> None:
    page = _open(browser, web)
    page.evaluate(
        """() => {
          window.seen = [];
          new MutationObserver(() => {
            const text = document.getElementById('messages').innerText;
            if (text.includes('TASK_COMPLETE') || /task[_ ]complete/i.test(text)) window.seen.push(text);
          }).observe(document.getElementById('messages'), {subtree: true, childList: true, characterData: true});
        }"""
    )
    web.model.add(
        ScriptedReply(text="All good here.\n\n**Task complete.**\nTASK_COMPLETE", chunk_size=3, delay=0.03)
    )
    _send(page, "check")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    expect(page.locator(".msg.assistant")).to_have_text("All good here.")
    assert page.evaluate("window.seen") == []
    _close(page)


def test_the_api_docs_page_draws_under_the_pages_own_csp(browser: Browser, web: Web) -> None:
    page = _open(browser, web)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)  # CSP refusals too
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(web.url) else None)
    page.goto(web.url + "/docs")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()  # drawn: the spec was read
    expect(page.locator(".swagger-ui")).to_contain_text("/v1/chat/completions")
    _shot(page, "web-docs")
    assert refused == [] and outside == [], (refused, outside)
    _close(page)
