"""The web UI's jobs panel in a real browser: next and last runs, the session a run made, approve,
run now and pause (Playwright driving Debian's Chromium against a real server)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.test_web_browser import browser, page  # noqa: F401  (the fixtures: a logged-in page)
from schedsupport import done
from websupport import Web


def test_the_jobs_panel_approves_runs_pauses_and_links_the_session(page: Page, web: Web) -> None:  # noqa: F811
    with web.client() as api:
        api.post("/api/cron", json={"id": "mine", "schedule": "daily 09:00", "prompt": "Report."})
    schedules = web.workspace / ".hearth" / "schedules.toml"
    schedules.parent.mkdir(exist_ok=True)  # Hearth's state is outside the workspace: nothing made .hearth/
    schedules.write_text('[[job]]\nid = "planted"\nschedule = "every 5m"\nprompt = "From the repo."\n')
    web.model.add(done("The job ran."))
    page.click("#open-jobs")
    panel = page.locator("#panel-body")
    expect(panel).to_contain_text("The scheduler runs in this server.")
    mine = panel.locator("tr[data-job=mine]")
    expect(mine.locator(".state")).to_have_text("enabled")
    panel.get_by_text("Reload schedules.toml").click()
    planted = panel.locator("tr[data-job=planted]")
    expect(planted.locator(".state")).to_have_text("needs approval")
    expect(planted.get_by_text("Run now")).to_have_count(0)  # nothing to run before approval
    planted.get_by_text("Approve").click()
    expect(panel.locator("tr[data-job=planted] .state")).to_have_text("enabled")
    panel.locator("tr[data-job=mine]").get_by_text("Run now").click()
    link = panel.locator("tr[data-job=mine] .session-link")
    for _ in range(50):  # the run finishes in the background; the panel shows it when reopened
        page.click("#panel-close")
        page.click("#open-jobs")
        if link.count():
            break
        page.wait_for_timeout(200)
    expect(panel.locator("tr[data-job=mine] .last")).to_contain_text("done")
    session = link.inner_text()
    link.click()
    expect(page.locator(".msg.assistant")).to_contain_text("The job ran.")
    assert session in page.url
    page.click("#open-jobs")
    panel.locator("tr[data-job=mine]").get_by_text("Pause").click()
    expect(panel.locator("tr[data-job=mine] .state")).to_have_text("paused")


def test_the_bridges_panel_shows_what_is_set_up(page: Page, web: Web) -> None:  # noqa: F811
    page.click("#open-bridges")
    panel = page.locator("#panel-body")
    expect(panel).to_contain_text("No bridge is running.")
    expect(panel.locator("li[data-bridge=telegram]")).to_contain_text("not set up")
    expect(panel.locator("li[data-bridge=whatsapp] button")).to_have_count(0)
    expect(panel.locator("li[data-bridge=sms]")).to_contain_text("/hooks/sms")
    expect(panel.locator("li[data-bridge=discord]")).to_contain_text("not set up")
