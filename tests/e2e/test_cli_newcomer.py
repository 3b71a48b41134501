"""The command line as a newcomer meets it: the real `hearth` subprocess against the scripted server.

--version; usage errors exit 64 (2 is "limit reached"); flags shown without a value type; an
error said once; a written tool call shown once; notices in full; no finish marker on screen; a
resumed session's earlier todos do not hold up a new message; `--plan --json` ends with `done`;
the REPL says at start that the model server cannot be reached.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pexpect
import pytest

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli, clean_env, state_of, wait_reflected


def fenced(name: str, **args: object) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": args}) + "\n```"


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once the socket is closed


def test_version(hearth) -> None:  # type: ignore[no-untyped-def]
    from importlib.metadata import version

    res = hearth("--version")
    assert res.code == 0 and res.stdout.strip() == f"hearth {version('hearth')}"


def test_usage_errors_exit_64_not_the_limit_code(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    mistyped = hearth("run", "--jsno", "x", "-w", str(workspace))
    assert mistyped.code == 64 and "No such option" in mistyped.stderr
    bad_value = hearth("run", "--budget", "lots", "x", "-w", str(workspace))
    assert bad_value.code == 64 and "--budget" in bad_value.stderr
    assert hearth("nosuchcommand").code == 64
    no_task = hearth("run", "-w", str(workspace))
    assert no_task.code == 64 and "Say what to do" in no_task.stderr


def test_boolean_flags_show_no_value_type_in_help(hearth) -> None:  # type: ignore[no-untyped-def]
    res = hearth("run", "--help", env={"COLUMNS": "120"})
    assert res.code == 0
    assert "<bool>" not in res.stdout
    budget = next(line for line in res.stdout.splitlines() if "--budget" in line)
    assert "<int>" in budget  # options that take a value still say which


def test_an_error_is_printed_once(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    res = hearth("run", "hi", "-w", str(workspace), env={"HEARTH_LLM_URL": url, "HEARTH_RETRIES": "0"})
    assert res.code == 1
    shown = res.stdout + res.stderr
    assert shown.count("Cannot reach the model server") == 1, shown


def test_a_written_tool_call_is_shown_once_and_the_marker_never(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(
        ScriptedReply(text="I'll create it.\n" + fenced("write", path="a.txt", content="hi"), chunk_size=5),
        ScriptedReply(text="Wrote a.txt. TASK_COMPLETE", chunk_size=3),
    )
    env = {"HEARTH_LLM_URL": server.url, "HEARTH_TOOL_MODE": "text"}
    res = hearth("run", "make a.txt", "-w", str(workspace), "-p", "auto", env=env)
    assert res.code == 0, res.stderr
    assert (workspace / "a.txt").read_text() == "hi"
    assert "I'll create it." in res.stdout and "Wrote a.txt." in res.stdout
    assert '"arguments"' not in res.stdout and "```" not in res.stdout  # not the raw call
    assert res.stdout.count("→ write(") == 1
    assert "TASK_COMPLETE" not in res.stdout and "✔ done" in res.stdout


def test_a_notice_is_shown_whole(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("todo_add", text="write the changelog"),
        ScriptedReply(text="All finished. TASK_COMPLETE"),
        call("todo_complete", id=1),
        ScriptedReply(text="Now it is. TASK_COMPLETE"),
    )
    res = hearth("run", "release", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    assert res.code == 0, res.stderr
    # the finish was refused: the open item and what to do about it, not just the first line
    assert "still open" in res.stdout and "todo 1: write the changelog" in res.stdout
    assert "/todo clear" in res.stdout


def test_a_resumed_sessions_old_todos_do_not_hold_up_a_new_message(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(call("todo_add", text="refactor the parser"), *[ScriptedReply(text="Done. TASK_COMPLETE")] * 3)
    env = {"HEARTH_LLM_URL": server.url}
    first = hearth("run", "refactor the parser", "-w", str(workspace), "--json", env=env)
    assert first.code == 2  # the model kept claiming done with its todo open: the limit
    server.add(ScriptedReply(text="2 + 2 is 4."))
    second = hearth("run", "what is 2 + 2?", "-w", str(workspace), "--continue", "--json", env=env)
    assert second.code == 0, second.stdout
    done = second.json_lines()[-1]
    assert done["type"] == "done" and done["status"] == "done"
    # still there for the model to see (carried, not dropped)
    assert "refactor the parser" in json.dumps(
        server.requests[-1]["messages"]
    ) or "refactor the parser" in str(server.requests[-1])


def test_a_new_todo_of_the_same_turn_still_holds_up_the_finish(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(ScriptedReply(text="Hello."))
    env = {"HEARTH_LLM_URL": server.url}
    assert hearth("run", "hi", "-w", str(workspace), "--json", env=env).code == 0
    server.add(call("todo_add", text="write tests"), *[ScriptedReply(text="Done. TASK_COMPLETE")] * 3)
    again = hearth("run", "add tests", "-w", str(workspace), "--continue", "--json", env=env)
    [done] = [line for line in again.json_lines() if line["type"] == "done"]
    assert again.code == 2 and "still open" in done["reason"]


def test_plan_json_prints_done_last(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    plan = "Here is the plan:\n1. Create notes.txt\n2. Write the summary into it"
    server.add(call("ls"), ScriptedReply(text=plan))
    res = hearth(
        "run", "write notes", "-w", str(workspace), "--plan", "--json", env={"HEARTH_LLM_URL": server.url}
    )
    assert res.code == 0, res.stderr
    types = [line["type"] for line in res.json_lines()]
    assert types[-1] == "done" and types.count("done") == 1, types
    assert "plan_ready" in types and "mode_changed" in types


def test_the_repl_warns_at_start_when_the_model_server_is_unreachable(home: Path, workspace: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "hearth", "-w", str(workspace)],
        env=clean_env(home, HEARTH_LLM_URL=url, TERM="xterm"),
        encoding="utf-8",
        timeout=60,  # a wait, not a measure: the REPL's start-up on a loaded 2-core machine
        dimensions=(50, 200),
    )
    try:
        child.expect("›")
        child.expect("cannot be reached")  # before any message is sent
        # the prompt drawn again after the warning: a Ctrl+D typed while the warning is printed
        # (the terminal back in cooked mode for it) is taken by the terminal, not the prompt
        child.expect("›")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


@pytest.mark.reflects
def test_the_answer_does_not_wait_for_the_reflection(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from hearth.core.events import Reflected
    from hearth.store.sessions import SessionStore

    server.add(call("ls"), ScriptedReply(text="Nothing here. TASK_COMPLETE"))
    learned = json.dumps({"knowledge": ["The workspace starts empty."]})
    server.reflection_replies.append(ScriptedReply(text=learned, chunk_size=2, delay=0.2))  # a slow model
    res = hearth("run", "what is here?", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": server.url})
    assert res.code == 0, res.stderr
    sid = res.json_lines()[0]["session"]
    store = SessionStore(state_of(workspace) / "sessions.db")
    try:
        assert not [e for e in store.events(sid) if isinstance(e, Reflected)]  # the command answered first
    finally:
        store.close()
    assert len(wait_reflected(workspace, sid).stored) == 1  # and the reflection still happened
