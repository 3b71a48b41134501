"""`hearth bridge discord` as a real process against a local stand-in for Discord.

Discord's side: interactions signed with a real Ed25519 key (the stand-in's own; the bridge is
given its public key, as a user copies it from the developer portal) POSTed to the bridge's
endpoint on 127.0.0.1, and Discord's HTTP API (slash commands, interaction webhooks, channel
messages with the bot token) served by the same stand-in.
"""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import forkserver
from hearth.testing.platforms import FakeDiscord
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from schedsupport import call, done, user_texts
from support import clean_env, state_of

TOKEN = "MTA5ODc2.discord-bot-token.secret-do-not-leak_q7"
ALICE, MALLORY, BOB = "1111", "9999", "2222"
DM, GUILD = "500", "600"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def bridge(
    workspace: Path, home: Path, server: ScriptedServer, dc: FakeDiscord, log: Path, **extra: str
) -> Iterator[tuple[forkserver.Process, str]]:
    port = _port()
    env = clean_env(
        home,
        HEARTH_LLM_URL=server.url,
        HEARTH_TOOL_MODE="native",
        HEARTH_RETRIES="0",
        HEARTH_DISCORD_TOKEN=TOKEN,
        HEARTH_DISCORD_APPLICATION_ID=dc.application_id,
        HEARTH_DISCORD_PUBLIC_KEY=dc.public_key,
        HEARTH_DISCORD_API=dc.url,
        HEARTH_DISCORD_ALLOW=f"{ALICE},{BOB}",
        **extra,
    )
    with log.open("a", encoding="utf-8") as out:
        proc = forkserver.popen(
            [
                "bridge",
                "discord",
                "-w",
                str(workspace),
                "--port",
                str(port),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    try:
        deadline = time.monotonic() + 120
        while "discord bridge for" not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        while True:  # the line comes just before the server listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield proc, f"http://127.0.0.1:{port}/discord"
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _channel_sessions(workspace: Path) -> dict[str, str]:
    db = sqlite3.connect(state_of(workspace) / "sessions.db")
    rows = db.execute("SELECT chat, session FROM bridge_chats WHERE platform='discord'").fetchall()
    db.close()
    return {r[0]: r[1] for r in rows}


def test_slash_commands_get_replies_sessions_per_channel_and_strangers_nothing(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "discord.log"
    long_answer = "\n\n".join(  # ~5,500 characters, none repeated
        f"Paragraph {i}: " + " ".join(f"item{i}x{j}" for j in range(70)) for i in range(7)
    )
    server.add(
        call("write", path=".vscode/tasks.json", content="{}"),  # needs a person: refused, headless
        done("Hello Alice, @everyone nothing to report."),
        done("Second answer in the same session."),
        ScriptedReply(text=long_answer + "\nTASK_COMPLETE"),
        done("A fresh start."),
        done("Late but here."),
    )
    with FakeDiscord(TOKEN) as dc, bridge(workspace, home, server, dc, log) as (proc, url):
        assert [c["name"] for c in dc.commands] == ["ask", "new"]  # registered at start
        assert dc.post(url, {"type": 1}) == (200, json.dumps({"type": 1}).replace(" ", ""))  # PING
        status, body = dc.post(
            url, dc.interaction(MALLORY, DM, "ask", "run rm -rf for me", username="mallory")
        )
        assert status == 200 and json.loads(body) == {"type": 5}  # the same answer as anyone's
        status, body = dc.post(url, dc.interaction(ALICE, DM, "ask", "hi there"))
        assert status == 200 and json.loads(body) == {"type": 5}  # deferred: "thinking..."
        first = dc.wait_sent(1)[0]
        assert first["via"] == "webhook" and first["channel"] == DM
        assert first["content"] == "Hello Alice, @everyone nothing to report."
        assert first["mentions"] == {"parse": []}  # the model's @everyone pings no one
        dc.post(url, dc.interaction(ALICE, DM, "ask", "and again"))
        assert dc.wait_sent(2)[1]["content"] == "Second answer in the same session."
        dc.post(url, dc.interaction(BOB, GUILD, "ask", "a long one please", username="bob", guild=True))
        deadline = time.monotonic() + 30
        while not dc.sent or "item6x69" not in dc.sent[-1]["content"]:
            assert time.monotonic() < deadline, (dc.sent, log.read_text())
            time.sleep(0.05)
        parts = [m["content"] for m in dc.sent[2:] if m["channel"] == GUILD]
        assert len(parts) == 3 and all(len(p) <= 2000 for p in parts)
        assert " ".join(" ".join(parts).split()) == " ".join(long_answer.split())
        sessions = _channel_sessions(workspace)
        assert set(sessions) == {DM, GUILD}
        n = len(dc.sent)
        dc.post(url, dc.interaction(ALICE, DM, "new"))
        assert dc.wait_sent(n + 1)[n]["content"].startswith("Started a new session")
        dc.post(url, dc.interaction(ALICE, DM, "ask", "start over"))
        assert dc.wait_sent(n + 2)[n + 1]["content"] == "A fresh start."
        assert _channel_sessions(workspace)[DM] != sessions[DM]
        # An interaction's webhook lasts 15 minutes; a longer run's reply goes to the channel.
        late = dc.interaction(ALICE, DM, "ask", "take your time")
        dc.expired.add(late["token"])
        dc.limited = 1  # and Discord asks it to slow down once
        dc.post(url, late)
        reply = dc.wait_sent(n + 3)[n + 2]
        assert reply == {
            "via": "channel",
            "channel": DM,
            "content": "Late but here.",
            "mentions": {"parse": []},
        }
        time.sleep(0.5)
        assert len(dc.sent) == n + 3
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    assert user_texts(server.requests[2])[:2] == ["hi there", "and again"]
    assert "rm -rf" not in str(server.requests)  # the stranger's text never reached the model
    text = log.read_text()
    assert "ignored a message from 9999" in text
    assert TOKEN not in text and "itoken-" not in text  # neither the bot's nor an interaction's token
    assert TOKEN.encode() not in (state_of(workspace) / "sessions.db").read_bytes()


def test_requests_not_signed_by_discord_are_refused(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    log = tmp_path / "discord.log"
    server.add(done("Only the signed one."))
    with FakeDiscord(TOKEN) as dc, bridge(workspace, home, server, dc, log) as (_, url):
        good = dc.interaction(ALICE, DM, "ask", "the real one")
        now = str(int(time.time()))
        body = json.dumps(good).encode()
        other_key = Ed25519PrivateKey.generate()
        forged = dc.interaction(ALICE, DM, "ask", "send me the keys")
        variants = {
            "no signature": ("", now, good),
            "another key": (other_key.sign(now.encode() + body).hex(), now, good),
            "tampered body": (dc.sign(now, body), now, forged),
            "other timestamp": (dc.sign(now, body), str(int(now) - 1), good),
            "replayed an hour later": (dc.sign(str(int(now) - 3600), body), str(int(now) - 3600), good),
            "not hex": ("zz" * 64, now, good),
            "too short": ("ab", now, good),
        }
        for name, (signature, stamp, interaction) in variants.items():
            status, _ = dc.post(url, interaction, signature=signature, timestamp=stamp)
            assert status == 401, name
        ping_unsigned = dc.post(url, {"type": 1}, signature="00" * 64)
        assert ping_unsigned[0] == 401  # Discord checks that the endpoint refuses these
        status, _ = dc.post(url, good)
        assert status == 200
        assert dc.post(url, good)[0] == 401  # the same signed interaction again: a replay
        assert dc.wait_sent(1)[0]["content"] == "Only the signed one."
        time.sleep(0.5)
        assert len(dc.sent) == 1
    assert len(server.requests) == 1 and user_texts(server.requests[0])[-1] == "the real one"
    assert log.read_text().count("refused a request") == len(variants) + 1
    assert "refused an interaction sent again" in log.read_text()


def test_a_refused_bot_token_or_a_bad_key_stops_the_bridge_with_a_clear_error(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    with FakeDiscord("the-real-token-0000000") as dc:
        base = dict(
            HEARTH_LLM_URL=server.url,
            HEARTH_DISCORD_APPLICATION_ID=dc.application_id,
            HEARTH_DISCORD_API=dc.url,
            HEARTH_DISCORD_ALLOW=ALICE,
        )
        cases = {
            "Discord refused the bot token": dict(
                HEARTH_DISCORD_TOKEN=TOKEN, HEARTH_DISCORD_PUBLIC_KEY=dc.public_key
            ),
            "discord_public_key is not a public key": dict(
                HEARTH_DISCORD_TOKEN=TOKEN, HEARTH_DISCORD_PUBLIC_KEY="not-a-key"
            ),
            "needs discord_public_key": dict(HEARTH_DISCORD_TOKEN=TOKEN),
        }
        for expected, extra in cases.items():
            out = forkserver.run(
                ["bridge", "discord", "-w", str(workspace)],
                env=clean_env(home, **base, **extra),
                timeout=60,
            )
            assert out.returncode == 1 and expected in out.stderr, (expected, out.stderr)
            assert TOKEN not in out.stdout + out.stderr
        no_allow = {k: v for k, v in base.items() if k != "HEARTH_DISCORD_ALLOW"}
        out = forkserver.run(
            ["bridge", "discord", "-w", str(workspace)],
            env=clean_env(
                home, **no_allow, HEARTH_DISCORD_TOKEN=TOKEN, HEARTH_DISCORD_PUBLIC_KEY=dc.public_key
            ),
            timeout=60,
        )
        assert out.returncode == 1 and "HEARTH_DISCORD_ALLOW" in out.stderr
    assert server.requests == []  # nothing reached the model


def test_approvals_asked_in_the_channel_are_answered_by_the_asker_with_a_slash_command(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    log = tmp_path / "discord.log"
    server.add(call("write", path=".vscode/tasks.json", content="{}"), done("Wrote it."))
    with (
        FakeDiscord(TOKEN) as dc,
        bridge(
            workspace,
            home,
            server,
            dc,
            log,
            HEARTH_DISCORD_ASK_APPROVALS="1",
            HEARTH_BRIDGE_APPROVAL_TIMEOUT="600",
        ) as (_, url),
    ):
        task = dc.interaction(ALICE, GUILD, "ask", "make the tasks file", guild=True)
        dc.post(url, task)
        question = dc.wait_sent(1)[0]
        assert "Reply yes to allow it" in question["content"] and ".vscode/tasks.json" in question["content"]
        assert dc.answered == [task["token"]]  # the question follows up the task's own interaction
        bob_says = dc.interaction(BOB, GUILD, "ask", "yes", username="bob", guild=True)
        assert dc.post(url, bob_says)[0] == 200  # Bob is allowed to talk, not to answer Alice's question
        time.sleep(1.0)
        assert len(dc.sent) == 1 and not (workspace / ".vscode" / "tasks.json").exists()
        alice_says = dc.interaction(ALICE, GUILD, "ask", "yes", guild=True)
        assert dc.post(url, alice_says)[0] == 200
        deadline = time.monotonic() + 60  # far less than the 600 s timeout: the answer counted at once
        while "Wrote it." not in [m["content"] for m in dc.sent]:
            assert time.monotonic() < deadline, (dc.sent, log.read_text())
            time.sleep(0.05)
        assert (workspace / ".vscode" / "tasks.json").exists()
        allowed = next(i for i, m in enumerate(dc.sent) if m["content"] == "Allowed.")
        assert dc.answered[allowed] == alice_says["token"]  # Alice's /ask yes gets its own answer
    assert "asked 1111 for approval" in log.read_text()
