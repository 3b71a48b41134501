"""Sub-agents and role models in the web UI, in a real browser (Playwright with Debian's Chromium)
against a real server: a child's progress shows live in its parent's chat, the session browser
shows the child under its parent, and the Models panel switches a role's model for the session."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from e2e.test_web_browser import browser, page
from runtime.test_subagents import call, done, first_user
from websupport import Web

__all__ = ["browser", "page"]  # fixtures


def test_a_childs_progress_is_live_and_its_session_sits_under_its_parent(page: Page, web: Web) -> None:
    web.model.add(call("delegate", objective="UICHILD look", deliverable="names"), done("Parent done."))
    web.model.route("UICHILD", call("ls", path="."), done("Looked."))
    page.fill("#input", "delegate a look")
    page.click("#send")
    expect(page.locator(".line.done").last).to_have_text("✓ done")
    lines = page.locator(".line.subagent")
    expect(lines.first).to_contain_text("started")
    expect(page.locator(".line.subagent", has_text="→ ls")).to_have_count(1)
    expect(page.locator(".line.subagent.ok")).to_contain_text("finished")
    child_id = lines.first.get_attribute("data-session")
    assert child_id
    parent_id = page.evaluate("location.hash").split("=", 1)[1]
    page.click("#refresh-sessions")
    entries = page.locator("#session-list li")
    expect(entries).to_have_count(2)
    assert entries.nth(0).get_attribute("data-id") == parent_id  # the parent first, its child below it
    assert entries.nth(1).get_attribute("data-id") == child_id
    expect(entries.nth(1)).to_have_class("child")
    expect(entries.nth(1)).to_contain_text("↳ UICHILD look")
    with page.expect_popup() as popup:
        page.click("#export-session")
    exported = popup.value
    exported.wait_for_load_state()
    assert "## Sub-agents" in exported.content() and child_id in exported.content()
    exported.close()
    lines.first.click()  # opens the child's own session: its brief, auditable
    expect(page.locator(".msg.user")).to_contain_text("UICHILD look")


def test_the_models_panel_switches_a_roles_model_for_the_session(page: Page, web: Web) -> None:
    web.model.add(done("first"))
    page.fill("#input", "hello")
    page.click("#send")
    expect(page.locator(".line.done")).to_have_text("✓ done")
    page.click("#open-models")
    row = page.locator("table.roles tr[data-role=main]")
    expect(row).to_be_visible()
    row.locator("input").fill("picked-model")
    row.locator("button").click()
    expect(page.locator("table.roles tr[data-role=main] input")).to_have_value("picked-model")
    # the switch's own event has come back (and any redraw it causes is done) before the next edit
    expect(page.locator(".line", has_text="model of the main role: picked-model")).to_have_count(1)
    reviewer = page.locator("table.roles tr[data-role=reviewer]")
    reviewer.locator("input").fill("rev-model")
    reviewer.locator("button").click()
    expect(page.locator("table.roles tr[data-role=reviewer] input")).to_have_value("rev-model")
    page.click("#panel-close")
    expect(page.locator(".line", has_text="model of the main role: picked-model")).to_have_count(1)
    web.model.add(
        call("delegate", objective="PANELCHILD go", deliverable="x", role="reviewer"), done("second")
    )
    web.model.route("PANELCHILD", done("child"))
    page.fill("#input", "again")
    page.click("#send")
    expect(page.locator(".line.done")).to_have_count(2)
    expect(page.locator(".line.done").last).to_have_text("✓ done")
    later = web.model.requests[1:]
    child = next(b for b in later if "PANELCHILD" in first_user(b))
    assert child["model"] == "rev-model"
    assert all(b["model"] == "picked-model" for b in later if b is not child), json.dumps(
        [b.get("model") for b in later]
    )
    page.reload()  # a fresh page reads the session back: the choice is in its events
    page.click("#open-models")
    expect(page.locator("table.roles tr[data-role=main] input")).to_have_value("picked-model")
