"""Voice input: the web UI's microphone button, shown only when the model server has
/v1/audio/transcriptions (the scripted server plays one that records what it receives)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearth.testing.server import ScriptedServer
from requirements import CHROMIUM, need
from websupport import Web, running_web


@pytest.fixture
def hearing(workspace: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Web]:
    with ScriptedServer(transcriptions=True) as model, running_web(workspace, home, model, monkeypatch) as w:
        yield w


def test_speech_goes_to_the_servers_transcriptions(hearing: Web) -> None:
    with hearing.client() as api:
        assert api.get("/api/voice").json() == {"available": True}
        res = api.post(
            "/api/voice/transcribe", content=b"OggS-fake-audio", headers={"Content-Type": "audio/ogg"}
        )
        assert res.status_code == 200 and res.json() == {"text": "heard 15 bytes"}
        empty = api.post("/api/voice/transcribe", content=b"", headers={"Content-Type": "audio/webm"})
        assert empty.status_code == 400 and "empty" in empty.json()["detail"]
    ((fields, audio),) = hearing.model.audio
    assert audio == b"OggS-fake-audio" and fields["model"] == "whisper-1"


def test_without_the_route_voice_is_unavailable_and_refused(web: Web) -> None:
    with web.client() as api:
        assert api.get("/api/voice").json() == {"available": False}
        res = api.post("/api/voice/transcribe", content=b"x", headers={"Content-Type": "audio/webm"})
        assert res.status_code == 404 and "transcriptions" in res.json()["detail"]
    with web.client(token=None) as anon:
        assert anon.post("/api/voice/transcribe", content=b"x").status_code == 401


@pytest.mark.parametrize("offered", [True, False])
def test_the_microphone_button_records_and_fills_the_message_box(
    workspace: Path, home: Path, monkeypatch: pytest.MonkeyPatch, offered: bool
) -> None:
    need("chromium")
    from playwright.sync_api import expect, sync_playwright

    with (
        ScriptedServer(transcriptions=offered) as model,
        running_web(workspace, home, model, monkeypatch) as web,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--use-fake-ui-for-media-stream",
                "--use-fake-device-for-media-stream",
            ],
        )
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(web.url + "/")
        page.fill("#pin", web.auth.pin)
        page.click("text=Log in")
        page.wait_for_selector("#app:not([hidden])")
        if not offered:
            page.wait_for_timeout(1000)
            expect(page.locator("#voice")).to_be_hidden()
            browser.close()
            return
        expect(page.locator("#voice")).to_be_visible()
        page.click("#voice")
        expect(page.locator("#voice")).to_have_class(re.compile("recording"))
        page.wait_for_timeout(800)
        page.click("#voice")
        expect(page.locator("#input")).to_have_value(re.compile(r"^heard \d+ bytes$"))
        browser.close()
        ((fields, audio),) = model.audio
        assert len(audio) > 100 and fields["model"] == "whisper-1"
