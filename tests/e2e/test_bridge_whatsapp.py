"""`hearth bridge whatsapp` as a real process against a local Green API server on 127.0.0.1."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from hearth.testing.platforms import FakeGreenApi
from hearth.testing.server import ScriptedServer
from schedsupport import done, user_texts
from support import clean_env

INSTANCE = "1101000001"
TOKEN = "green-api-token-d41d8cd98f00b204e980"
ALICE, STRANGER = "79001110000", "79009990000"


def _command(workspace: Path) -> list[str]:
    return [sys.executable, "-m", "hearth.apps.cli.main", "bridge", "whatsapp", "-w", str(workspace)]


def test_allow_listed_numbers_are_answered_in_one_session_and_strangers_are_not(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    server.add(done("Hi Alice."), done("Same session."), done("New one."))
    log = tmp_path / "whatsapp.log"
    with FakeGreenApi(INSTANCE, TOKEN) as green:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_WHATSAPP_INSTANCE=INSTANCE,
            HEARTH_WHATSAPP_TOKEN=TOKEN,
            HEARTH_WHATSAPP_API=green.url,
            HEARTH_WHATSAPP_ALLOW=f"+{ALICE}",
        )
        with log.open("w") as out:
            proc = subprocess.Popen(_command(workspace), stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            green.say(STRANGER, "hello, who is this?")
            green.say(ALICE, "hello")
            assert green.wait_sent(1) == [{"chatId": f"{ALICE}@c.us", "message": "Hi Alice."}]
            green.say(ALICE, "again")
            assert green.wait_sent(2)[1]["message"] == "Same session."
            green.say(ALICE, "/new")
            assert green.wait_sent(3)[2]["message"].startswith("Started a new session")
            green.say(ALICE, "fresh")
            assert green.wait_sent(4)[3]["message"] == "New one."
            time.sleep(0.5)
            assert all(m["chatId"] != f"{STRANGER}@c.us" for m in green.sent)
            assert green.notifications == [] and sorted(green.deleted) == [1, 2, 3, 4, 5]  # each taken once
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    assert user_texts(server.requests[1])[:2] == ["hello", "again"]
    assert user_texts(server.requests[2]) == ["fresh"]
    text = log.read_text()
    assert f"ignored a message from {STRANGER}@c.us" in text and "whatsapp bridge stopped" in text
    assert TOKEN not in text


def test_a_wrong_green_api_token_stops_with_a_clear_error(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    with FakeGreenApi(INSTANCE, "the-real-token-123456") as green:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_WHATSAPP_INSTANCE=INSTANCE,
            HEARTH_WHATSAPP_TOKEN=TOKEN,
            HEARTH_WHATSAPP_API=green.url,
            HEARTH_WHATSAPP_ALLOW=ALICE,
        )
        out = subprocess.run(_command(workspace), capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1 and "Green API refused" in out.stderr
    assert TOKEN not in out.stdout + out.stderr
