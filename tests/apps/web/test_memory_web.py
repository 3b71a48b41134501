"""The memory panel and its API: list, search and forget over a real server, behind the login,
and in Debian's Chromium through Playwright (memory text shown as text, never as HTML)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hearth.memory.store import MemoryStore
from hearth.runtime.config import user_data_path
from requirements import CHROMIUM, need
from support import state_of
from websupport import Web


def _seed(web: Web) -> dict[str, int]:
    project = MemoryStore(state_of(web.workspace) / "memory.db")
    ids = {
        "port": project.store("The postgres database listens on port 5433.", "fact", session="s-1").id,
        "mistake": project.store("Mistake: ran pytest\nRule: use make check <b>bold</b>", "learning").id,
    }
    project.close()
    user = MemoryStore(user_data_path() / "memory.db")
    ids["pref"] = user.store("I prefer short commit messages.", "preference").id
    user.close()
    return {k: int(v or 0) for k, v in ids.items()}


def test_memory_api_lists_searches_and_forgets_behind_the_login(web: Web) -> None:
    ids = _seed(web)
    with web.client(token=None) as anon:
        assert anon.get("/api/memory").status_code == 401
        assert anon.delete(f"/api/memory/project/{ids['port']}").status_code == 401
    with web.client() as c:
        listed = c.get("/api/memory").json()
        assert listed["mode"] == "list"
        assert {(i["scope"], i["kind"]) for i in listed["items"]} == {
            ("project", "fact"),
            ("project", "learning"),
            ("user", "preference"),
        }
        assert [i["ref"] for i in listed["items"] if i["scope"] == "user"] == [f"u{ids['pref']}"]
        ledger = c.get("/api/memory", params={"kind": "learning"}).json()["items"]
        assert [i["text"].splitlines()[0] for i in ledger] == ["Mistake: ran pytest"]
        found = c.get("/api/memory", params={"q": "which port does postgres use"}).json()
        assert (
            found["items"][0]["text"].startswith("The postgres database")
            and found["items"][0]["session"] == "s-1"
        )
        assert c.delete(f"/api/memory/project/{ids['port']}").json() == {"forgotten": str(ids["port"])}
        assert c.delete(f"/api/memory/project/{ids['port']}").status_code == 404
        assert c.delete("/api/memory/nowhere/1").status_code == 422
        left = c.get("/api/memory").json()["items"]
        assert "port 5433" not in str(left) and len(left) == 2


@pytest.fixture
def page(web: Web) -> Iterator[object]:
    need("chromium")
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_page(viewport={"width": 1280, "height": 800})
        pg.set_default_timeout(15_000)
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.goto(web.url + "/")
        pg.fill("#pin", web.auth.pin)
        pg.click("text=Log in")
        expect(pg.locator("#app")).to_be_visible()
        yield pg
        browser.close()
        assert errors == [], errors


def test_memory_panel_lists_searches_filters_and_forgets(page: object, web: Web) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    _seed(web)
    page.click("#open-memory")
    items = page.locator("#panel-body li.memory")
    expect(items).to_have_count(3)
    expect(page.locator("#panel-body")).to_contain_text("I prefer short commit messages.")
    # Memory text is text: the markup in the learning is shown, not rendered.
    expect(page.locator("#panel-body pre.memory-text").filter(has_text="Mistake")).to_contain_text(
        "<b>bold</b>"
    )
    assert page.locator("#panel-body b").count() == 0
    page.select_option("#panel-body select", "learning")  # the mistake ledger
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Rule: use make check")
    page.select_option("#panel-body select", "")
    expect(items).to_have_count(3)  # re-rendered: the search box below is the new one
    page.fill("#panel-body input[type=search]", "postgres port")
    page.click("#panel-body form button")
    expect(items.first).to_contain_text("port 5433")
    items.first.get_by_text("Forget").click()
    expect(page.locator("#panel-body")).not_to_contain_text("port 5433")
    page.click("#panel-close")
    page.click("#open-memory")
    expect(items).to_have_count(2)
    with web.client() as c:
        assert "port 5433" not in c.get("/api/memory").text
