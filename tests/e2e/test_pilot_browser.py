"""Pilot's web panel in a real browser: Playwright driving Debian's Chromium against a real
server with the scripted model behind it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from hearth.testing.script import ScriptedCall, ScriptedReply
from requirements import CHROMIUM, need_module
from websupport import Web

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
    yield pg
    context.close()
    assert errors == [], errors


def test_the_pilot_panel_asks_for_login_first(page: Page, web: Web) -> None:
    page.goto(web.url + "/static/pilot.html")
    expect(page.locator("#need-login")).to_be_visible()
    expect(page.locator("#pilot")).to_be_hidden()


def test_the_pilot_panel_chats_shows_plans_and_cancels_and_resumes(page: Page, web: Web) -> None:
    web.model.add(
        ScriptedReply(
            tool_calls=[
                ScriptedCall(name="create_plan", arguments={"name": "from-ui", "text": "# UI\nA page.\n"})
            ]
        ),
        ScriptedReply(text="Wrote plans/from-ui.md. <img src=x onerror=window.pwned=1>\nTASK_COMPLETE"),
    )
    page.goto(web.url + "/")
    page.fill("#pin", web.auth.pin)
    page.click("text=Log in")
    expect(page.locator("#app")).to_be_visible()
    page.goto(web.url + "/static/pilot.html")
    expect(page.locator("#plans")).to_contain_text("No plans yet")
    page.fill("#message", "Write a plan for a page.")
    page.click("#send")
    expect(page.locator("#chat")).to_contain_text(
        "Wrote plans/from-ui.md. <img src=x onerror=window.pwned=1>"
    )
    assert page.evaluate("window.pwned") is None  # shown as text, never as HTML
    card = page.locator("article.plan", has_text="plans/from-ui.md")
    expect(card).to_contain_text("new")
    card.get_by_role("button", name="Cancel").click()
    expect(card).to_contain_text("cancelled")
    expect(page.locator("#chat")).to_contain_text("1 plan(s) cancelled")
    card.get_by_role("button", name="Resume").click()
    expect(card.locator("h2")).to_contain_text("new")
    assert (web.workspace / "plans" / "from-ui.md").read_text() == "# UI\nA page.\n"
    tools = web.model.requests[0]["tools"]
    assert "shell" not in {t["function"]["name"] for t in tools}


def test_the_main_page_links_to_pilot_and_pilot_links_back(page: Page, web: Web) -> None:
    page.goto(web.url + "/")
    page.fill("#pin", web.auth.pin)
    page.click("text=Log in")
    expect(page.locator("#app")).to_be_visible()
    link = page.get_by_role("link", name="Pilot")
    expect(link).to_be_visible()  # in the header, beside the other panels
    link.click()
    page.wait_for_url(web.url + "/static/pilot.html")
    expect(page.locator("#pilot")).to_be_visible()  # still logged in: the panel itself, not the login note
    expect(page.locator("#need-login")).to_be_hidden()
    expect(page.locator("#plans")).to_contain_text("No plans yet")
    page.get_by_role("link", name="Sessions").click()
    expect(page.locator("#app")).to_be_visible()
