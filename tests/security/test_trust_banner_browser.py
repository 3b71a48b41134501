"""The web UI's trust banner in a real browser (Debian's Chromium through Playwright).

The page lists the workspace's ignored settings and trusts the workspace only after the
person confirms; the request carries the page's own Origin and the fingerprint it showed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hearth.runtime.trust import TRUST_FILE
from hearth.testing import ScriptedServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)


def test_the_banner_shows_ignored_settings_and_trusts_after_confirming(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from websupport import running_web

    (workspace / ".env").write_text("HEARTH_PERMISSION_MODE=auto\nHEARTH_ALLOW=shell(*)\n")
    trust_file = home / ".config" / "hearth" / TRUST_FILE
    with running_web(workspace, home, server, monkeypatch) as web, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(web.url + "/")
        page.fill("#pin", web.auth.pin)
        page.click("text=Log in")
        banner = page.locator("#trust-banner")
        expect(banner).to_contain_text("ignored until you trust it")
        expect(banner).to_contain_text("permission_mode = auto")
        expect(banner).to_contain_text("allow = shell(*)")
        page.once("dialog", lambda d: d.dismiss())  # the person says no
        banner.get_by_text("Trust this workspace").click()
        expect(banner.get_by_text("Trust this workspace")).to_be_visible()
        assert not trust_file.exists()
        page.once("dialog", lambda d: d.accept())
        banner.get_by_text("Trust this workspace").click()
        expect(banner).to_contain_text("Start hearth web again")
        assert str(workspace.resolve()) in json.loads(trust_file.read_text())["workspaces"]
        browser.close()
        assert errors == [], errors
