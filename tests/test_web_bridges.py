"""The messaging panel's API: one bridge at a time inside `hearth web`, switched over HTTP (issue 18).

Real web server on 127.0.0.1, the local Bot API and Green API stand-ins, the scripted model.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hearth.testing.platforms import FakeGreenApi, FakeTelegram
from hearth.testing.server import ScriptedServer
from schedsupport import done
from websupport import running_web

TOKEN = "7000002:AAH-web-bridge-token-secret_zz"
GREEN_TOKEN = "green-web-token-0123456789abcdef"
ALICE, GREEN_ALICE = 111, "79001110000"


def test_one_bridge_at_a_time_switched_from_the_web(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.add(done("Telegram reply."), done("WhatsApp reply."))
    with FakeTelegram(TOKEN) as tg, FakeGreenApi("1101", GREEN_TOKEN) as green:
        settings = {
            "tool_mode": "native",
            "telegram_token": TOKEN,
            "telegram_api": tg.url,
            "telegram_allow": [str(ALICE)],
            "whatsapp_instance": "1101",
            "whatsapp_token": GREEN_TOKEN,
            "whatsapp_api": green.url,
            "whatsapp_allow": [GREEN_ALICE],
        }
        with running_web(workspace, home, server, monkeypatch, **settings) as w, w.client() as api:
            idle = api.get("/api/bridges").json()
            assert idle["active"] is None
            assert {b["name"]: b["configured"] for b in idle["bridges"]} == {
                "telegram": True,
                "whatsapp": True,
            }
            started = api.post("/api/bridges/telegram/start").json()
            assert started["active"] == "telegram"
            tg.say(ALICE, "hello from telegram")
            assert tg.wait_sent(1)[0]["text"] == "Telegram reply."
            switched = api.post("/api/bridges/whatsapp/start").json()  # stops telegram first
            assert switched["active"] == "whatsapp"
            polls = len([p for p, _ in tg.requests if p.endswith("/getUpdates")])
            green.say(GREEN_ALICE, "hello from whatsapp")
            assert green.wait_sent(1)[0]["message"] == "WhatsApp reply."
            time.sleep(1.5)
            assert len([p for p, _ in tg.requests if p.endswith("/getUpdates")]) == polls  # telegram is off
            feed = api.get("/api/bridges").json()["log"]
            assert any("telegram bridge stopped" in line for line in feed)
            sessions = api.get("/api/sessions").json()
            assert len(sessions) == 2  # each chat's session, in the web's session browser
            assert api.post("/api/bridges/stop").json()["active"] is None
            assert api.post("/api/bridges/discord/start").status_code == 422  # not a bridge here
            text = str(feed)
            assert TOKEN.split(":")[1] not in text and GREEN_TOKEN not in text


def test_an_unconfigured_bridge_says_what_to_set(web) -> None:  # type: ignore[no-untyped-def]
    with web.client() as api:
        answer = api.post("/api/bridges/telegram/start")
    assert answer.status_code == 400 and "telegram_allow" in answer.json()["hint"]
