"""`hearth bridge telegram` as a real process against a local Bot API server on 127.0.0.1.

The bridge long-polls the fake Bot API (base URL from `telegram_api`), answers only allow-listed
senders, keeps one session per chat across restarts, starts a new one on `/new`, splits long
replies to 4,096 characters, refuses approvals as a headless run, and never shows its token.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import forkserver
from hearth.testing.platforms import FakeTelegram
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from schedsupport import call, done, user_texts
from support import clean_env, state_of

TOKEN = "7000001:AAH-secret-bot-token-do-not-leak_x9"
ALICE, MALLORY, BOB = 111, 999, 222


@contextmanager
def bridge(
    workspace: Path, home: Path, server: ScriptedServer, tg: FakeTelegram, log: Path
) -> Iterator[forkserver.Process]:
    env = clean_env(
        home,
        HEARTH_LLM_URL=server.url,
        HEARTH_TOOL_MODE="native",
        HEARTH_RETRIES="0",
        HEARTH_TELEGRAM_TOKEN=TOKEN,
        HEARTH_TELEGRAM_API=tg.url,
        HEARTH_TELEGRAM_ALLOW=f"{ALICE},{BOB}",
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
        deadline = time.monotonic() + 120  # a loaded machine starts it slowly
        while "telegram bridge @" not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the bridge did not start"
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


def _chat_sessions(workspace: Path) -> dict[str, str]:
    db = sqlite3.connect(state_of(workspace) / "sessions.db")
    rows = db.execute("SELECT chat, session FROM bridge_chats WHERE platform='telegram'").fetchall()
    db.close()
    return {r[0]: r[1] for r in rows}


def test_allow_listed_chats_get_persistent_sessions_and_strangers_get_nothing(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "bridge.log"
    long_answer = "\n\n".join(  # ~11,000 characters, none repeated (a repeating reply is cut)
        f"Paragraph {i}: " + " ".join(f"item{i}x{j}" for j in range(110)) for i in range(12)
    )
    server.add(
        call("write", path=".vscode/tasks.json", content="{}"),  # needs a person: refused, headless
        done("Hello Alice, nothing to report."),
        done("Second answer in the same session."),
        ScriptedReply(text=long_answer + "\nTASK_COMPLETE"),
        done("A fresh start."),
    )
    with FakeTelegram(TOKEN) as tg, bridge(workspace, home, server, tg, log) as proc:
        tg.say(MALLORY, "hello, run rm -rf for me", username="mallory")
        tg.say(ALICE, "hi there")
        first = tg.wait_sent(1)
        assert first == [{"chat_id": ALICE, "text": "Hello Alice, nothing to report."}]
        tg.say(ALICE, "and again")
        assert tg.wait_sent(2)[1]["text"] == "Second answer in the same session."
        tg.say(BOB, "a long one please", username="bob")  # allowed by id
        deadline = time.monotonic() + 30
        while not tg.sent or "item11x109" not in tg.sent[-1]["text"]:
            assert time.monotonic() < deadline, tg.sent
            time.sleep(0.05)
        sent = list(tg.sent)
        parts = [m["text"] for m in sent[2:] if m["chat_id"] == BOB]
        assert len(parts) in (3, 4) and all(len(p) <= 4096 for p in parts)
        assert " ".join(" ".join(parts).split()) == " ".join(long_answer.split())
        sessions = _chat_sessions(workspace)
        assert set(sessions) == {str(ALICE), str(BOB)}
        alice_session = sessions[str(ALICE)]
        n = len(sent)
        tg.say(ALICE, "/new")
        assert tg.wait_sent(n + 1)[n]["text"].startswith("Started a new session")
        tg.say(ALICE, "start over")
        assert tg.wait_sent(n + 2)[n + 1]["text"] == "A fresh start."
        assert _chat_sessions(workspace)[str(ALICE)] != alice_session
        time.sleep(0.5)
        assert all(m["chat_id"] != MALLORY for m in tg.sent)  # the stranger got no reply at all
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    # Alice's first two messages went to one session; the model saw both.
    second_request = server.requests[2]
    assert user_texts(second_request)[:2] == ["hi there", "and again"]
    assert "hello, run rm -rf" not in str(server.requests)
    assert not (workspace / ".vscode" / "tasks.json").exists()
    text = log.read_text()
    assert f"ignored a message from {MALLORY} (@mallory): not on the allow-list" in text
    assert "telegram bridge stopped" in text
    _assert_no_token(workspace, text)


def test_a_restarted_bridge_keeps_each_chats_session(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "bridge.log"
    server.add(done("one"), done("two"))
    with FakeTelegram(TOKEN) as tg:
        with bridge(workspace, home, server, tg, log):
            tg.say(ALICE, "remember the number 7")
            tg.wait_sent(1)
        with bridge(workspace, home, server, tg, log):
            tg.say(ALICE, "what was the number?")
            tg.wait_sent(2)
    assert user_texts(server.requests[1])[:2] == ["remember the number 7", "what was the number?"]


def test_platform_errors_are_waited_out_and_a_wrong_token_stops_with_a_clear_error(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "bridge.log"
    server.add(done("still here"))
    with FakeTelegram(TOKEN) as tg:
        tg.errors = [
            (502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}),
            (
                429,
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests",
                    "parameters": {"retry_after": 1},
                },
            ),
        ]
        with bridge(workspace, home, server, tg, log):
            tg.say(ALICE, "are you there?")
            assert tg.wait_sent(1)[0]["text"] == "still here"
        text = log.read_text()
        assert "slow down" in text and "trying again" in text
        wrong = FakeTelegram("7000001:a-different-token")
    with wrong:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TELEGRAM_TOKEN=TOKEN,
            HEARTH_TELEGRAM_API=wrong.url,
            HEARTH_TELEGRAM_ALLOW=str(ALICE),
        )
        out = forkserver.run(
            ["bridge", "telegram", "-w", str(workspace)],
            env=env,
            timeout=60,
        )
    assert out.returncode == 1
    assert "Telegram refused the bot token" in out.stderr and "HEARTH_TELEGRAM_TOKEN" in out.stderr
    _assert_no_token(workspace, out.stdout + out.stderr + text)


def test_the_bridge_refuses_to_start_without_an_allow_list(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_TELEGRAM_TOKEN=TOKEN)
    out = forkserver.run(
        ["bridge", "telegram", "-w", str(workspace)],
        env=env,
        timeout=60,
    )
    assert out.returncode == 1 and "HEARTH_TELEGRAM_ALLOW" in out.stderr
    assert TOKEN not in out.stdout + out.stderr


def _assert_no_token(workspace: Path, *texts: str) -> None:
    secret_part = TOKEN.split(":", 1)[1]
    for text in texts:
        assert secret_part not in text
    db = (state_of(workspace) / "sessions.db").read_bytes()
    assert secret_part.encode() not in db
    for path in state_of(workspace).rglob("*"):
        if path.is_file() and path.suffix in (".log", ".json", ".md", ".txt"):
            assert secret_part not in path.read_text(errors="replace")


def test_the_webhook_mode_answers_telegrams_requests_and_refuses_others(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server.add(done("Hello over the webhook."))
    log = tmp_path / "webhook.log"
    with FakeTelegram(TOKEN) as tg:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_TELEGRAM_TOKEN=TOKEN,
            HEARTH_TELEGRAM_API=tg.url,
            HEARTH_TELEGRAM_ALLOW=str(ALICE),
        )
        url = f"http://127.0.0.1:{port}/telegram"  # in real use: the public HTTPS address
        with log.open("w") as out:
            proc = forkserver.popen(
                [
                    "bridge",
                    "telegram",
                    "-w",
                    str(workspace),
                    "--webhook",
                    url,
                    "--port",
                    str(port),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        try:
            deadline = time.monotonic() + 30
            while tg.webhook is None or "served on" not in log.read_text():
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline
                time.sleep(0.05)
            while True:  # "served on" is printed as the listener opens: wait until it accepts
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            assert tg.webhook[0] == url and len(tg.webhook[1]) >= 32
            for wrong in ("", "guessed-secret"):
                tg.say(ALICE, "forged update")
                assert tg.deliver(secret=wrong) == [403]
            tg.say(ALICE, "hello by webhook")
            assert tg.deliver() == [200]
            assert tg.wait_sent(1) == [{"chat_id": ALICE, "text": "Hello over the webhook."}]
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
        assert tg.webhook is None  # removed on the way out
    assert len(server.requests) == 1 and user_texts(server.requests[0]) == ["hello by webhook"]
    text = log.read_text()
    assert text.count("refused a webhook request") == 2
    _assert_no_token(workspace, text)
