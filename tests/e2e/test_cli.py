"""The real `hearth` command in a subprocess, against the scripted server over HTTP."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

import forkserver
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli, clean_env, state_of, wait_reflected


def fenced(name: str, **args: object) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": args}) + "\n```"


HELLO = [
    ScriptedReply(text="I'll create it.\n" + fenced("write", path="hello.py", content="print('hello')\n")),
    ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "hello.py"})]),
    ScriptedReply(text="<think>all good</think>hello.py prints hello. TASK_COMPLETE"),
]


def test_one_shot_task_with_the_seeds_full_url_form(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(*HELLO)
    res = hearth(
        "run",
        "Create hello.py that prints hello, then read it back",
        "--workspace",
        str(workspace),
        env={"LLM_URL": server.url + "/chat/completions"},
    )
    assert res.code == 0, res.stderr
    assert (workspace / "hello.py").read_text() == "print('hello')\n"
    assert "→ write(" in res.stdout and "✓" in res.stdout and "✔ done" in res.stdout
    assert "tokens:" in res.stdout
    assert server.violations == []
    # thinking is never sent back
    assert all("all good" not in json.dumps(r) for r in server.requests)


@pytest.mark.reflects
def test_json_mode_prints_only_json_lines(hearth: HearthCli, server: ScriptedServer, workspace: Path) -> None:
    server.add(*HELLO)
    res = hearth("run", "Create hello.py", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    assert res.code == 0, res.stderr
    lines = res.json_lines()  # raises if any stdout line is not JSON
    types = [line["type"] for line in lines]
    # `done` is the last line: reflection on the work runs after the answer, in a process of its own
    assert types[0] == "session_started" and types[-1] == "done" and "reflected" not in types
    assert {"user_message", "text", "tool_call", "tool_result", "usage", "thinking"} <= set(types)
    sid = lines[0]["session"]
    assert sid and all(line["session"] == sid for line in lines)
    assert lines[-1]["status"] == "done" and lines[-1]["exit_code"] == 0
    reflected = wait_reflected(workspace, sid)  # the scripted server learned nothing
    assert reflected.stored == () and reflected.error == "" and len(server.reflections) == 1
    usage = [line for line in lines if line["type"] == "usage"]
    assert usage[1]["cached_tokens"] > 0 and usage[0]["ttft_ms"] is not None


@pytest.mark.parametrize(
    ("replies", "args", "code", "status"),
    [
        ([ScriptedReply(text="BLOCKED: no such database")] * 2, [], 3, "blocked"),
        ([ScriptedReply(text="WAIT: 2031-05-01T08:00:00+00:00: nightly build")], [], 4, "waiting"),
        (
            [ScriptedReply(text=fenced("ls", path=p)) for p in (".", "..x", ".")],
            ["--max-iterations", "2"],
            2,
            "limit",
        ),
        ([ScriptedReply(status=500, error="model crashed")], [], 1, "error"),
    ],
)
def test_exit_codes(hearth, server: ScriptedServer, workspace: Path, replies, args, code, status) -> None:  # type: ignore[no-untyped-def]
    server.add(*replies)
    res = hearth(
        "run",
        "task",
        "-w",
        str(workspace),
        "--json",
        *args,
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
    )
    assert res.code == code, res.stdout + res.stderr
    [done] = [line for line in res.json_lines() if line["type"] == "done"]
    assert done["status"] == status


def test_sessions_are_listed_and_resumed(hearth: HearthCli, server: ScriptedServer, workspace: Path) -> None:
    env = {"HEARTH_LLM_URL": server.url}
    server.add(ScriptedReply(text="Noted: the secret word is marmalade."))
    first = hearth("run", "Remember the word marmalade", "-w", str(workspace), "--json", env=env)
    sid = first.json_lines()[0]["session"]
    listing = hearth("sessions", "-w", str(workspace), env=env)
    assert sid in listing.stdout and "Remember the word" in listing.stdout and "done" in listing.stdout
    assert sid in hearth("--list-sessions", "-w", str(workspace), env=env).stdout

    server.add(ScriptedReply(text="It was marmalade."))
    second = hearth(
        "run", "What was the word?", "-w", str(workspace), "--resume", sid[:18], "--json", env=env
    )
    assert second.code == 0
    assert second.json_lines()[0]["session"] == sid
    sent = [m["content"] for m in server.requests[-1]["messages"]]
    assert sent[1:] == [
        "Remember the word marmalade",
        "Noted: the secret word is marmalade.",
        "What was the word?",
    ]
    # the system prompt is byte-identical across the two processes
    assert server.requests[0]["messages"][0] == server.requests[1]["messages"][0]

    server.add(ScriptedReply(text="Still marmalade."))
    third = hearth("run", "Again?", "-w", str(workspace), "--continue", "--json", env=env)
    assert third.json_lines()[0]["session"] == sid
    shown = hearth("sessions", "show", sid, "-w", str(workspace), env=env)
    assert [json.loads(x)["type"] for x in shown.stdout.splitlines()].count("user_message") == 3


def test_config_shows_layers_masks_secrets_and_reads_the_context_window(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    (workspace / ".hearth").mkdir()
    (workspace / ".hearth" / "config.toml").write_text('max_iterations = 7\nmodel = "from-project"\n')
    (workspace / ".env").write_text("HEARTH_MODEL=from-dotenv\n")
    res = hearth(
        "config",
        "-w",
        str(workspace),
        env={"HEARTH_LLM_URL": server.url, "HEARTH_API_KEY": "sk-verysecretvalue1234"},
    )
    assert res.code == 0, res.stderr
    assert "sk-verysecretvalue1234" not in res.stdout and "(masked)" in res.stdout
    rows = {line.split()[0]: line for line in res.stdout.splitlines() if line.strip()}
    assert "7" in rows["max_iterations"] and "config.toml" in rows["max_iterations"]
    assert "from-dotenv" in rows["model"] and ".env" in rows["model"]
    assert "context window: 8192 (from llama.cpp /props)" in res.stdout


def test_bad_config_value_says_where_it_came_from(hearth: HearthCli, workspace: Path) -> None:
    res = hearth(
        "run", "x", "-w", str(workspace), env={"HEARTH_MAX_ITERATIONS": "lots", "HEARTH_LLM_URL": "http://x"}
    )
    assert res.code == 1
    assert "max_iterations" in res.stderr and "environment" in res.stderr


def test_unreachable_server_is_explained_and_the_session_kept(hearth: HearthCli, workspace: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = hearth(
        "run",
        "anything",
        "-w",
        str(workspace),
        env={"HEARTH_LLM_URL": f"http://127.0.0.1:{port}/v1", "HEARTH_RETRIES": "1"},
    )
    assert res.code == 1
    assert f"127.0.0.1:{port}" in res.stdout and "HEARTH_LLM_URL" in res.stdout
    store = SessionStore(state_of(workspace) / "sessions.db")
    [info] = store.list_sessions()
    assert info.status == "error" and info.title == "anything"


def test_missing_workspace_is_a_clear_error(hearth: HearthCli, tmp_path: Path) -> None:
    res = hearth("run", "x", "-w", str(tmp_path / "nope"), env={"HEARTH_LLM_URL": "http://127.0.0.1:9/v1"})
    assert res.code == 1
    assert "does not exist" in res.stderr and "mkdir" in res.stderr


def test_no_server_and_no_embedded_model_says_what_to_do(hearth: HearthCli, workspace: Path) -> None:
    pytest.importorskip("pytest")
    import importlib.util

    if importlib.util.find_spec("llama_cpp") is not None:
        pytest.skip("the embedded server is installed here")
    res = hearth("run", "x", "-w", str(workspace))
    assert res.code == 1
    assert "HEARTH_LLM_URL" in res.stderr and "quickstart" in res.stderr


def _spawn(workspace: Path, home: Path, url: str, *args: str) -> forkserver.Process:
    return forkserver.popen(
        ["run", *args, "-w", str(workspace), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(home, HEARTH_LLM_URL=url),
    )


def _wait_for_requests(server: ScriptedServer, n: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while len(server.requests) < n:
        assert time.monotonic() < deadline, "the agent never sent its request"
        time.sleep(0.02)


def test_ctrl_c_mid_stream_exits_130_and_records_it(
    server: ScriptedServer, workspace: Path, home: Path
) -> None:
    server.add(ScriptedReply(text="a very slow reply " * 20, chunk_size=2, delay=0.05))
    proc = _spawn(workspace, home, server.url, "task")
    _wait_for_requests(server, 1)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert json.loads(out.splitlines()[-1])["status"] == "interrupted"
    [info] = SessionStore(state_of(workspace) / "sessions.db").list_sessions()
    assert info.status == "interrupted"


def test_killed_mid_step_resumes_cleanly(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    server.add(
        ScriptedReply(
            tool_calls=[ScriptedCall(id="c1", name="write", arguments={"path": "a.txt", "content": "1"})]
        ),
        ScriptedReply(text="slow " * 200, chunk_size=1, delay=0.05),  # killed while this streams
    )
    proc = _spawn(workspace, home, server.url, "write a.txt")
    _wait_for_requests(server, 2)
    time.sleep(0.2)
    proc.kill()
    proc.wait(timeout=10)
    assert (workspace / "a.txt").read_text() == "1"
    [info] = SessionStore(state_of(workspace) / "sessions.db").list_sessions()
    server.script.clear()
    server.add(ScriptedReply(text="Done: a.txt holds 1."))
    res = hearth(
        "run",
        "carry on",
        "-w",
        str(workspace),
        "--resume",
        info.id,
        "--json",
        env={"HEARTH_LLM_URL": server.url},
    )
    assert res.code == 0, res.stdout + res.stderr
    msgs = server.requests[-1]["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "user"]
    assert server.violations == []


@pytest.mark.reflects
def test_sessions_export_and_remove(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(*HELLO)
    run = hearth("run", "Create hello.py", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    sid = run.json_lines()[0]["session"]
    md = hearth("sessions", "export", sid[:20], "-w", str(workspace))
    assert md.code == 0 and md.stdout.startswith("# Create hello.py")
    assert "## User" in md.stdout and "call `write`" in md.stdout and "**done**" in md.stdout
    wait_reflected(workspace, sid)
    data = json.loads(hearth("sessions", "export", sid, "--format", "json", "-w", str(workspace)).stdout)
    # the reflection after the task: what its request cost, then what it stored
    assert data["id"] == sid and [e["type"] for e in data["events"]][-3:] == [
        "done",
        "model_used",
        "reflected",
    ]
    assert hearth("sessions", "rm", sid, "-w", str(workspace)).stdout.strip() == f"Deleted session {sid}."
    assert "No sessions yet" in hearth("sessions", "-w", str(workspace)).stdout
    missing = hearth("sessions", "rm", sid, "-w", str(workspace))
    assert missing.code == 1 and "No session" in missing.stderr
