"""Bridges answer senders by immutable id only, and take every delivered message once.

Before: the Discord allow-list matched `username` and `global_name` (anyone can set a display
name), Telegram's matched `@username`, WhatsApp's the contact name's number forms; and a signed
Twilio request replayed ran its task again (Twilio signs no time), as did a Telegram update or a
Green API notification delivered again, and a Discord interaction after a restart (the seen ids
were in memory). Each case drives the real `hearth bridge ...` process against the local
stand-ins of `hearth.testing.platforms`; the scripted model counts the tasks that ran.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

import forkserver
from hearth.apps.bridges.allowlist import allowed_ids
from hearth.apps.bridges.chat import ChatBridge, Incoming
from hearth.apps.bridges.discord import _incoming
from hearth.core.errors import HearthError
from hearth.store.bridges import ChatSessions
from hearth.testing.platforms import FakeDiscord, FakeGreenApi, FakeTelegram
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from support import clean_env

ALICE_ID, MALLORY_ID = "1111", "9999"


def done(text: str) -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(args: list[str], env: dict[str, str], log: Path, ready: str, port: int = 0) -> Iterator[None]:
    """`hearth bridge ARGS` until the block ends (SIGTERM), once `ready` is in its log (and `port` listens)."""
    with log.open("a") as out:
        proc = forkserver.popen(
            ["bridge", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        deadline = time.monotonic() + 60
        while log.read_text().count(ready) < 1 + log.read_text().count("bridge stopped"):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        while port:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- allow-lists: ids only ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "entry"),
    [
        ("discord", "alice"),
        ("discord", "Alice Display"),
        ("telegram", "@bob"),
        ("telegram", "bob"),
        ("sms", "alice"),
        ("whatsapp", "Alice"),
    ],
)
def test_a_name_in_an_allow_list_is_a_config_error(
    platform: str, entry: str, workspace: Path, home: Path, server: ScriptedServer
) -> None:
    env = clean_env(
        home,
        HEARTH_LLM_URL=server.url,
        HEARTH_TELEGRAM_TOKEN="123:abc",
        HEARTH_TWILIO_AUTH_TOKEN="t",
        HEARTH_TWILIO_ACCOUNT_SID="AC1",
        HEARTH_TWILIO_PUBLIC_URL="https://x.example/sms",
        HEARTH_WHATSAPP_INSTANCE="1",
        HEARTH_WHATSAPP_TOKEN="t",
        HEARTH_DISCORD_TOKEN="t",
        HEARTH_DISCORD_APPLICATION_ID="1",
        HEARTH_DISCORD_PUBLIC_KEY="00" * 32,
        HEARTH_DISCORD_API="http://127.0.0.1:9",
        **{
            f"HEARTH_{platform.upper()}_ALLOW": f"{ALICE_ID if platform != 'sms' else '+15550001111'},{entry}"
        },
    )
    out = forkserver.run(
        ["bridge", platform, "-w", str(workspace)],
        env=env,
        timeout=60,
    )
    assert out.returncode == 1, out
    assert "not an id" in out.stderr and repr(entry) in out.stderr, out.stderr
    assert f"{platform}_allow" in out.stderr
    assert server.requests == []


@pytest.mark.parametrize("guild", [False, True])
def test_a_discord_display_name_or_username_equal_to_an_allowed_id_is_refused(
    guild: bool, tmp_path: Path
) -> None:
    """Mallory sets `global_name` (and would set a username) to Alice's id: not Alice."""
    dc = FakeDiscord("t")
    interaction = dc.interaction(MALLORY_ID, "500", "ask", "run it", username=ALICE_ID, guild=guild)
    user = interaction["member"]["user"] if guild else interaction["user"]
    user["global_name"] = ALICE_ID
    incoming = _incoming(interaction)
    assert incoming is not None
    chats = ChatSessions(tmp_path / "s.db")
    core = ChatBridge(None, chats, [ALICE_ID], 2000, print, platform="discord")  # type: ignore[arg-type]
    try:
        assert not core.allowed(incoming)
        alice = _incoming(dc.interaction(ALICE_ID, "500", "ask", "hi", guild=guild))
        assert alice is not None and core.allowed(alice)
    finally:
        chats.close()


def test_whatsapp_and_telegram_names_never_match(tmp_path: Path) -> None:
    chats = ChatSessions(tmp_path / "s.db")
    try:
        wa = ChatBridge(None, chats, ["+7 900 111-00-00"], 100, print, platform="whatsapp")  # type: ignore[arg-type]
        assert wa.allowed(Incoming("whatsapp", "79001110000@c.us", "79001110000@c.us", (), "x"))
        named = Incoming("whatsapp", "79009990000@c.us", "79009990000@c.us", ("79001110000",), "x")
        assert not wa.allowed(named)
        tg = ChatBridge(None, chats, ["111"], 100, print, platform="telegram")  # type: ignore[arg-type]
        assert not tg.allowed(Incoming("telegram", "999", "999", ("@111", "111"), "x"))
        assert not tg.allowed(Incoming("discord", "111", "111", (), "x"))  # another platform's id
        with pytest.raises(HearthError, match="not an id"):
            allowed_ids("telegram", ["@alice"])
    finally:
        chats.close()


# --- every webhook once ------------------------------------------------------------------------

SID, AUTH = "AC" + "0" * 31 + "1", "twilio-auth-token-replay"
PUBLIC = "https://hearth.example.org/sms"


def _twilio_signature(url: str, fields: dict[str, str]) -> str:
    data = url + "".join(k + fields[k] for k in sorted(fields))
    return base64.b64encode(hmac.new(AUTH.encode(), data.encode(), hashlib.sha1).digest()).decode()


def test_a_signed_twilio_request_replayed_runs_once_even_across_a_restart(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    from hearth.testing.platforms import FakeTwilio

    server.add(done("First and only."), done("A second run: the replay worked."))
    port, log = _port(), tmp_path / "sms.log"
    fields = {
        "From": "+15550001111",
        "To": "+15559990000",
        "Body": "deploy it",
        "MessageSid": "SM" + "a" * 32,
    }
    headers = {"X-Twilio-Signature": _twilio_signature(PUBLIC, fields)}
    no_sid = {k: v for k, v in fields.items() if k != "MessageSid"}
    with FakeTwilio(SID, AUTH) as twilio:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_TWILIO_AUTH_TOKEN=AUTH,
            HEARTH_TWILIO_ACCOUNT_SID=SID,
            HEARTH_TWILIO_API=twilio.url,
            HEARTH_TWILIO_PUBLIC_URL=PUBLIC,
            HEARTH_SMS_ALLOW="+1 555 000 1111",
        )
        args = ["sms", "-w", str(workspace), "--port", str(port)]
        url = f"http://127.0.0.1:{port}/sms"
        with running(args, env, log, "sms bridge for", port), httpx.Client(timeout=30) as client:
            for _ in range(3):
                assert client.post(url, data=fields, headers=headers).status_code == 200
            signed_no_sid = {"X-Twilio-Signature": _twilio_signature(PUBLIC, no_sid)}
            assert client.post(url, data=no_sid, headers=signed_no_sid).status_code == 400
            assert twilio.wait_sent(1)[0]["Body"] == "First and only."
        with running(args, env, log, "sms bridge for", port), httpx.Client(timeout=30) as client:
            assert client.post(url, data=fields, headers=headers).status_code == 200
            time.sleep(1.0)
    assert len(server.requests) == 1, "the replayed request ran a task"
    assert len(twilio.sent) == 1
    assert log.read_text().count("sent again (a replay)") == 3


def test_a_discord_interaction_replayed_is_refused_also_after_a_restart(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    server.add(done("Once."), done("Twice: the replay ran."))
    port, log = _port(), tmp_path / "discord.log"
    with FakeDiscord("MTA5.discord-token.secret_x") as dc:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_DISCORD_TOKEN=dc.token,
            HEARTH_DISCORD_APPLICATION_ID=dc.application_id,
            HEARTH_DISCORD_PUBLIC_KEY=dc.public_key,
            HEARTH_DISCORD_API=dc.url,
            HEARTH_DISCORD_ALLOW=ALICE_ID,
        )
        args = ["discord", "-w", str(workspace), "--port", str(port)]
        url = f"http://127.0.0.1:{port}/discord"
        first = dc.interaction(ALICE_ID, "500", "ask", "hello")
        stamp = str(int(time.time()))
        with running(args, env, log, "discord bridge for", port):
            assert dc.post(url, first, timestamp=stamp)[0] == 200
            assert dc.post(url, first, timestamp=stamp)[0] == 401
            stale = dc.interaction(ALICE_ID, "500", "ask", "old news")
            assert dc.post(url, stale, timestamp=str(int(time.time()) - 600))[0] == 401
            future = dc.interaction(ALICE_ID, "500", "ask", "from the future")
            assert dc.post(url, future, timestamp=str(int(time.time()) + 600))[0] == 401
            mallory = dc.interaction(MALLORY_ID, "500", "ask", "run it", username=ALICE_ID)
            mallory["user"]["global_name"] = ALICE_ID
            assert dc.post(url, mallory)[0] == 200  # answered as Discord wants, but never run
            dc.wait_sent(1)
        with running(args, env, log, "discord bridge for", port):
            assert dc.post(url, first, timestamp=stamp)[0] == 401
    assert len(server.requests) == 1
    text = log.read_text()
    assert text.count("(a replay)") == 2
    assert f"ignored a message from {MALLORY_ID}" in text


def test_a_telegram_update_delivered_twice_runs_once(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    token = "123456:telegram-token-replay-secret"
    server.add(done("Once."), done("Twice: the replay ran."))
    port, log = _port(), tmp_path / "telegram.log"
    with FakeTelegram(token) as tg:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_TELEGRAM_TOKEN=token,
            HEARTH_TELEGRAM_API=tg.url,
            HEARTH_TELEGRAM_ALLOW="111",
        )
        url = f"http://127.0.0.1:{port}/telegram"
        args = ["telegram", "-w", str(workspace), "--webhook", url, "--port", str(port)]
        with running(args, env, log, "served on", port):
            tg.say(111, "hello", username="alice")
            update = copy.deepcopy(tg.updates[-1])
            assert tg.deliver() == [200]
            assert tg.wait_sent(1)[0]["text"] == "Once."
            tg.updates.append(copy.deepcopy(update))
            assert tg.deliver() == [200]  # taken, so Telegram does not send it again, and dropped
            time.sleep(1.0)
        with running(args, env, log, "served on", port):  # after a restart, too
            tg.updates.append(update)
            assert tg.deliver() == [200]
            time.sleep(1.0)
    assert len(server.requests) == 1
    assert log.read_text().count("delivered again") == 2


def test_a_whatsapp_notification_delivered_twice_runs_once(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    instance, token = "1101000001", "green-api-token-replay"
    server.add(done("Once."), done("Twice: the replay ran."))
    log = tmp_path / "whatsapp.log"
    with FakeGreenApi(instance, token) as green:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_WHATSAPP_INSTANCE=instance,
            HEARTH_WHATSAPP_TOKEN=token,
            HEARTH_WHATSAPP_API=green.url,
            HEARTH_WHATSAPP_ALLOW="79001110000",
        )
        args = ["whatsapp", "-w", str(workspace)]
        with running(args, env, log, "whatsapp bridge (instance"):
            green.say("79001110000", "hello")
            again = copy.deepcopy(green.notifications[-1])
            assert green.wait_sent(1)[0]["message"] == "Once."
            with green.lock:
                again["receiptId"] = 99
                green.notifications.append(again)
                green.lock.notify_all()
            deadline = time.monotonic() + 20
            while 99 not in green.deleted:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(0.5)
    assert len(server.requests) == 1
    assert log.read_text().count("delivered again") == 1
