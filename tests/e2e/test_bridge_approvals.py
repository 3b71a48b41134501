"""Approvals asked in the chat when the user turned that on (`telegram_ask_approvals`).

`hearth bridge telegram` as a real process against the local Bot API: a call that needs a person
is asked in the chat of the sender who gave the task, through the hub's one approval path; only
that sender's yes or no counts, and no answer within `bridge_approval_timeout` refuses.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import forkserver
from hearth.testing.platforms import FakeTelegram
from hearth.testing.server import ScriptedServer
from schedsupport import call, done, settings_for
from support import clean_env

TOKEN = "7000003:AAH-approvals-bot-token-secret_q1"
ALICE, BOB, GROUP = 111, 222, -1005
TIMEOUT = 15  # long enough for a loaded machine to pass the answers on; case 3 waits it out


@contextmanager
def bridge(
    workspace: Path, home: Path, server: ScriptedServer, tg: FakeTelegram, log: Path, **extra: str
) -> Iterator[forkserver.Process]:
    env = clean_env(
        home,
        HEARTH_LLM_URL=server.url,
        HEARTH_TOOL_MODE="native",
        HEARTH_RETRIES="0",
        HEARTH_TELEGRAM_TOKEN=TOKEN,
        HEARTH_TELEGRAM_API=tg.url,
        HEARTH_TELEGRAM_ALLOW=f"{ALICE},{BOB}",
        HEARTH_BRIDGE_APPROVAL_TIMEOUT=str(TIMEOUT),
        **extra,
    )
    with log.open("a", encoding="utf-8") as out:
        proc = forkserver.popen(
            ["bridge", "telegram", "-w", str(workspace)],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    try:
        deadline = time.monotonic() + 120
        while "telegram bridge @" not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _texts(tg: FakeTelegram, chat: int) -> list[str]:
    return [m["text"] for m in tg.sent if m["chat_id"] == chat]


def _wait_text(tg: FakeTelegram, chat: int, part: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not any(part in t for t in _texts(tg, chat)):
        assert time.monotonic() < deadline, (part, tg.sent)
        time.sleep(0.05)


def _tool_results(request: dict[str, object]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]  # type: ignore[attr-defined]


def test_the_asker_allows_or_refuses_in_the_chat_and_no_one_else_can(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "bridge.log"
    server.add(
        call("write", path=".vscode/tasks.json", content='{"ok": 1}'),
        done("Wrote the tasks file."),
        call("write", path=".vscode/settings.json", content="{}"),
        done("Left the settings alone."),
        done("Bob's own message answered."),
        call("write", path=".vscode/launch.json", content="{}"),
        done("Nobody answered, so no launch file."),
    )
    with (
        FakeTelegram(TOKEN) as tg,
        bridge(workspace, home, server, tg, log, HEARTH_TELEGRAM_ASK_APPROVALS="true"),
    ):
        # 1. Alice in her own chat says yes: the call runs.
        tg.say(ALICE, "make the tasks file")
        _wait_text(tg, ALICE, "Reply yes to allow it")
        question = _texts(tg, ALICE)[0]
        assert "write" in question and ".vscode/tasks.json" in question
        tg.say(ALICE, "yes")
        _wait_text(tg, ALICE, "Wrote the tasks file.")
        assert _texts(tg, ALICE)[1:] == ["Allowed.", "Wrote the tasks file."]
        assert json.loads((workspace / ".vscode" / "tasks.json").read_text()) == {"ok": 1}

        # 2. In a group: Bob (allowed to talk to the bridge) cannot answer Alice's question; an
        # answer that is neither yes nor no gets a reminder; Alice's no refuses.
        tg.say(ALICE, "now the settings", chat_id=GROUP)
        _wait_text(tg, GROUP, "Reply yes to allow it")
        tg.say(BOB, "yes", chat_id=GROUP)
        time.sleep(1.0)
        assert not (workspace / ".vscode" / "settings.json").exists()
        assert "Allowed." not in _texts(tg, GROUP)
        tg.say(ALICE, "hmm, maybe", chat_id=GROUP)
        _wait_text(tg, GROUP, "Please answer yes or no")
        tg.say(ALICE, "No.", chat_id=GROUP)
        _wait_text(tg, GROUP, "Left the settings alone.")
        _wait_text(tg, GROUP, "Bob's own message answered.")  # Bob's "yes" was a message of its own
        group = _texts(tg, GROUP)
        assert group.index("Refused.") < group.index("Left the settings alone.")
        assert not (workspace / ".vscode" / "settings.json").exists()

        # 3. No answer in time: refused.
        tg.say(ALICE, "and a launch file")
        _wait_text(tg, ALICE, "Nobody answered, so no launch file.", timeout=TIMEOUT + 30)
        assert "No answer in time: refused." in _texts(tg, ALICE)
        assert not (workspace / ".vscode" / "launch.json").exists()
    # What the model was told each time, through the one approval path.
    assert _tool_results(server.requests[1])[-1].startswith("Created .vscode/tasks.json")
    assert _tool_results(server.requests[3])[-1] == (
        "Denied: the user did not allow this write call. The user says: refused in the chat"
    )
    assert _tool_results(server.requests[6])[-1].endswith("The user says: no answer in time")
    text = log.read_text()
    assert "asked 111 for approval" in text and "no answer in time: refused" in text
    assert TOKEN.split(":")[1] not in text


def test_with_asking_off_the_call_is_refused_without_a_question(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    server.add(call("write", path=".vscode/tasks.json", content="{}"), done("Could not write it."))
    with FakeTelegram(TOKEN) as tg, bridge(workspace, home, server, tg, tmp_path / "bridge.log"):
        tg.say(ALICE, "make the tasks file")
        _wait_text(tg, ALICE, "Could not write it.")
        assert _texts(tg, ALICE) == ["Could not write it."]  # no question was asked
    assert not (workspace / ".vscode" / "tasks.json").exists()
    assert "this run has no one to ask" in _tool_results(server.requests[1])[-1]


def test_a_workspace_cannot_turn_asking_on_or_change_who_is_allowed(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".hearth").mkdir()
    (workspace / ".hearth" / "config.toml").write_text(
        'telegram_ask_approvals = true\ndiscord_ask_approvals = true\ntelegram_allow = ["666"]\n'
        'discord_allow = ["666"]\nbridge_approval_timeout = 99999\ndiscord_api = "http://evil.example"\n'
    )
    settings = settings_for(workspace, home, server, monkeypatch)
    assert (
        settings.bridges.telegram.ask_approvals is False and settings.bridges.discord.ask_approvals is False
    )
    assert settings.bridges.telegram.allow == [] and settings.bridges.discord.allow == []
    assert settings.bridges.approval_timeout == 300.0
    assert settings.bridges.discord.api == "https://discord.com/api/v10"
