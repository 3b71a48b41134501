"""The messaging panel's API: one bridge at a time inside `hearth web`, switched over HTTP.

Real web server on 127.0.0.1, the local Bot API and Green API stand-ins, the scripted model.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from apps.bridges.test_bridge_sms import twilio_signature
from hearth.testing.platforms import FakeDiscord, FakeGreenApi, FakeTelegram, FakeTwilio
from hearth.testing.server import ScriptedServer
from schedsupport import done, user_texts
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
                "sms": False,
                "discord": False,
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
            assert api.post("/api/bridges/signal/start").status_code == 422  # not a bridge here
            text = str(feed)
            assert TOKEN.split(":")[1] not in text and GREEN_TOKEN not in text


def test_an_unconfigured_bridge_says_what_to_set(web) -> None:  # type: ignore[no-untyped-def]
    with web.client() as api:
        answer = api.post("/api/bridges/telegram/start")
    assert answer.status_code == 400 and "telegram_allow" in answer.json()["hint"]


SID = "AC" + "0" * 31 + "7"
TWILIO_AUTH = "twilio-web-auth-token-55e1-secret"
DISCORD_TOKEN = "MTA5.web-discord-bot-token.secret_k2"
PHONE, OURS, DISCORD_ALICE = "+15550001111", "+15559990000", "1111"
PUBLIC = "https://hearth.example.org/hooks/sms"  # what Twilio calls, through the user's tunnel


def test_sms_and_discord_webhooks_are_served_by_hearth_web_while_active(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.add(done("Hello by SMS from hearth web."), done("Hello on Discord from hearth web."))
    with FakeTwilio(SID, TWILIO_AUTH) as twilio, FakeDiscord(DISCORD_TOKEN) as dc:
        settings = {
            "tool_mode": "native",
            "twilio_auth_token": TWILIO_AUTH,
            "twilio_account_sid": SID,
            "twilio_api": twilio.url,
            "twilio_public_url": PUBLIC,
            "sms_allow": [PHONE],
            "discord_token": DISCORD_TOKEN,
            "discord_application_id": dc.application_id,
            "discord_public_key": dc.public_key,
            "discord_api": dc.url,
            "discord_allow": [DISCORD_ALICE],
        }
        with running_web(workspace, home, server, monkeypatch, **settings) as w, w.client() as api:
            hook = f"{w.url}/hooks/sms"
            fields = {"From": PHONE, "To": OURS, "Body": "hi from my phone", "MessageSid": "SM1"}
            signed = {"X-Twilio-Signature": twilio_signature(TWILIO_AUTH, PUBLIC, fields)}
            tunnel = {"Host": "hearth.example.org"}  # the tunnel keeps the public name
            with httpx.Client(timeout=30) as twilio_side:  # no login: Twilio has none
                assert twilio_side.post(hook, data=fields, headers={**signed, **tunnel}).status_code == 404
                listed = api.get("/api/bridges").json()["bridges"]
                assert {b["name"]: b["configured"] for b in listed}["sms"] is True
                assert api.post("/api/bridges/sms/start").json()["active"] == "sms"
                bad = {
                    "no signature": {},
                    "wrong token": {"X-Twilio-Signature": twilio_signature("nope-nope", PUBLIC, fields)},
                    "signed for the loopback url": {
                        "X-Twilio-Signature": twilio_signature(TWILIO_AUTH, hook, fields)
                    },
                    "garbage": {"X-Twilio-Signature": "AAAA"},
                }
                for name, headers in bad.items():
                    refused = twilio_side.post(hook, data=fields, headers={**headers, **tunnel})
                    assert refused.status_code == 403, name
                tampered = dict(fields, Body="send me the keys")
                assert twilio_side.post(hook, data=tampered, headers={**signed, **tunnel}).status_code == 403
                assert twilio_side.get(hook, headers=tunnel).status_code == 405
                # The way in is this one path: the rest of the server still needs the login and
                # still answers only to its loopback name.
                assert twilio_side.get(f"{w.url}/api/sessions", headers=tunnel).status_code == 421
                assert twilio_side.get(f"{w.url}/api/sessions").status_code == 401
                answered = twilio_side.post(hook, data=fields, headers={**signed, **tunnel})
                assert answered.status_code == 200 and "<Response>" in answered.text
                assert twilio.wait_sent(1) == [
                    {"To": PHONE, "From": OURS, "Body": "Hello by SMS from hearth web."}
                ]
                # Switched to Discord: the SMS webhook is gone, Discord's answers.
                assert api.post("/api/bridges/discord/start").json()["active"] == "discord"
                assert [c["name"] for c in dc.commands] == ["ask", "new"]
                assert twilio_side.post(hook, data=fields, headers={**signed, **tunnel}).status_code == 404
            discord_hook = f"{w.url}/hooks/discord"
            assert (
                dc.post(discord_hook, dc.interaction(DISCORD_ALICE, "700", "ask", "x"), signature="00" * 64)[
                    0
                ]
                == 401
            )
            status, _ = dc.post(discord_hook, dc.interaction(DISCORD_ALICE, "700", "ask", "hi from discord"))
            assert status == 200
            assert dc.wait_sent(1)[0]["content"] == "Hello on Discord from hearth web."
            feed = api.get("/api/bridges").json()["log"]
            assert api.post("/api/bridges/stop").json()["active"] is None
            assert dc.post(discord_hook, dc.interaction(DISCORD_ALICE, "700", "ask", "again"))[0] == 404
            assert len(api.get("/api/sessions").json()) == 2  # each chat's session, in the browser
    text = str(feed)
    assert "refused a request" in text and TWILIO_AUTH not in text and DISCORD_TOKEN not in text
    assert [user_texts(r)[-1] for r in server.requests] == ["hi from my phone", "hi from discord"]
    assert len(twilio.sent) == 1
