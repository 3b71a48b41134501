"""Replays of a small model's field runs (Qwen2.5-Coder-1.5B on llama-cpp-python, ten unseen tasks
and five multi-step ones): each failure class, scripted, through `hearth run`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from e2e.test_actions import (  # the grammar tests' scripted-run helpers
    act,
    events,
    finished,
    run,
    schema_of,
    wrote,
)
from hearth.core.events import Compacted, SessionStarted, ToolResult, WindowLearned
from hearth.llm.actions import JSON_OBJECT, offered_names
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli

SMALL = "qwen2.5-coder-1.5b-instruct"


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


# 1. Hearth rarely knew it was done


def test_a_script_written_and_run_then_exit_four_times_ends_done(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """It wrote a script, ran it, saw the right output, then called `shell exit` four times; the
    loop guard stopped it and the run ended with exit 2."""
    server.add(
        call("write", path="hello.py", content="print('hello')\n"),
        call("shell", command="python3 hello.py"),
        *[call("shell", command="exit")] * 4,
    )
    res = run(hearth, server, workspace, "Write hello.py that prints hello and run it")
    assert res.code == 0, res.stdout[-2000:]
    assert "same result 4 times" in finished(workspace).reason
    assert len(server.requests) == 6  # no verdict request


def test_a_commit_made_then_status_and_log_in_turn_ends_done(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Write, `git_add`, `git_commit` with the right message, then `git_status` and `git_log` in
    turn until the loop guard stopped it with exit 2."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(workspace)], check=True)
    for key, value in (("user.name", "T"), ("user.email", "t@example.com")):
        subprocess.run(["git", "config", key, value], cwd=workspace, check=True)
    server.add(
        call("write", path=".gitignore", content="__pycache__/\n"),
        call("git_add", paths=[".gitignore"]),
        call("git_commit", message="Add .gitignore"),
        *[call("git_status"), call("git_log")] * 4,
    )
    res = run(hearth, server, workspace, "Add a .gitignore for __pycache__ and commit it")
    assert res.code == 0, res.stdout[-2000:]
    log = subprocess.run(["git", "log", "--oneline"], cwd=workspace, capture_output=True, text=True).stdout
    assert "Add .gitignore" in log


def test_a_loop_on_a_doable_task_that_changed_nothing_ends_at_the_limit_not_blocked(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Where nothing had changed, the verdict request's BLOCKED became exit 3 on doable tasks."""
    (workspace / "notes.txt").write_text("teh cat\n")
    server.add(*[call("ls", path="."), call("read", path="notes.txt")] * 4)
    res = run(hearth, server, workspace, "Fix the typo in notes.txt")
    assert res.code == 2, res.stdout[-2000:]


def test_a_run_whose_last_check_failed_does_not_end_done(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("write", path="a.txt", content="x\n"),
        *[call("shell", command="grep -q y a.txt")] * 3,
    )
    res = run(hearth, server, workspace, "Write y into a.txt")
    assert res.code == 2, res.stdout[-2000:]


# 2. Reading in circles instead of writing (grammar mode)


def test_reading_two_files_in_turn_gets_short_answers_then_only_changing_actions(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    """On the exercises the model alternated reading the module and its test and never wrote;
    each re-read brought the whole file back (prompts 416 -> 2,725 -> 5,034 -> 7,413 tokens)."""
    module = "def add(a, b):\n    pass\n" + "# filler line\n" * 120
    (workspace / "calc.py").write_text(module)
    (workspace / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    script = [
        *[act("read", path="calc.py"), act("read", path="test_calc.py")] * 2,
        *wrote("calc.py", "def add(a, b):\n    return a + b\n"),
        act("shell", command="python3 -c 'from calc import add; assert add(1, 2) == 3'"),
        act("finish", summary="add() returns the sum."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Make the tests pass")  # no file named: none shown whole
        assert res.code == 0, res.stdout[-2000:]
        assert server.schema_breaks == []
        requests = server.requests
    reads = [r for r in events(workspace) if isinstance(r, ToolResult) and r.name == "read"]
    assert [r.output.startswith("Unchanged since you read it at step") for r in reads] == [
        False,
        False,
        True,
        True,
    ]
    # the fifth request (after four reads, two of them repeats) offers only changing actions
    assert sorted(offered_names(schema_of(requests[3]))) == sorted(
        ["read", "write", "edit", "ls", "grep", "shell", "finish", "blocked"]
    )
    assert sorted(offered_names(schema_of(requests[4]))) == ["blocked", "edit", "finish", "shell", "write"]
    # the module came back once, not on every re-read
    assert json.dumps(requests[4]["messages"]).count("# filler line") == 120


# 3. The window was never known


def test_a_stream_broken_after_200_is_an_overflow_compacted_and_retried_never_exit_1(
    hearth: HearthCli, workspace: Path
) -> None:
    """At 8,636 tokens the server answered 200, then broke the stream; the plain retry failed too
    (its connection dropped), and the run ended with exit 1."""
    (workspace / "a.txt").write_text("alpha beta gamma delta\n" * 120)
    steps = [call("read", path="a.txt", offset=i + 1) for i in range(10)]
    with ScriptedServer(
        summarising(steps, ScriptedReply(text="Read it. TASK_COMPLETE")),
        context_window=4096,
        flavor="llama-cpp-python",
        overflow_style="broken",
    ) as server:
        res = run(
            hearth, server, workspace, "Read a.txt", HEARTH_MAX_ITERATIONS="30", HEARTH_TOOL_MODE="text",
            HEARTH_MODEL_PROFILE="small",
        )  # fmt: skip
        assert res.code == 0, res.stdout[-3000:]
        assert server.overflows and server.overflows[0] is True
    assert [e for e in events(workspace) if isinstance(e, Compacted)]
    assert [e for e in events(workspace) if isinstance(e, WindowLearned)]


def test_a_learned_window_is_remembered_for_the_next_session_on_the_same_server(
    hearth: HearthCli, workspace: Path, tmp_path: Path
) -> None:
    overflow = ScriptedReply(status=400, error="Requested tokens (5210) exceed context window of 6144")
    with ScriptedServer(
        summarising([overflow], ScriptedReply(text="Hi. TASK_COMPLETE")), context_window=None
    ) as server:
        assert run(hearth, server, workspace, "Say hi").code == 0
        port = server.port
    other = tmp_path / "other"
    other.mkdir()
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")], context_window=None, port=port) as server:
        res = run(hearth, server, other, "Say hi")
        assert res.code == 0
    [started] = [e for e in events(other) if isinstance(e, SessionStarted)]
    assert started.context_window == 6144  # not assumed (4096): the server stated it in the first session


def summarising(replies: list[ScriptedReply], then: ScriptedReply) -> list[Any]:
    """A script that answers compaction's summary requests apart from the conversation."""
    queue = list(replies)

    def respond(body: dict[str, Any]) -> ScriptedReply:
        if "You summarise" in body["messages"][0]["content"]:
            return ScriptedReply(text="Read a.txt several times; nothing else was done.")
        return queue.pop(0) if queue else then

    return [respond] * (len(replies) + 20)


# Done is judged on evidence: a finish right after a failed run of the work


def test_a_finish_right_after_a_failed_run_is_pushed_back_then_not_done(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """A model wrote broken code into the python tool, saw the syntax error, and finished with a
    summary that said so: the run ended 0 with no work done."""
    server.add(
        call("python", code="import json; with open('x') as f: print(f)"),
        ScriptedReply(text="TASK_COMPLETE: the code has a syntax error."),
        ScriptedReply(text="TASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, "Write counts.py that counts words in text.txt and run it")
    assert res.code == 2, res.stdout[-2000:]
    notices = [e for e in events(workspace) if getattr(e, "reason", "") == "finish_after_failure"]
    assert len(notices) == 1 and "SyntaxError" in notices[0].text
    assert "last python run failed" in finished(workspace).reason


def test_a_finish_after_a_failed_run_that_was_then_fixed_is_done(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("shell", command="python3 hello.py"),
        call("write", path="hello.py", content="print('hello')\n"),
        call("shell", command="python3 hello.py"),
        ScriptedReply(text="TASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, "Write hello.py that prints hello and run it")
    assert res.code == 0, res.stdout[-2000:]
    assert not [e for e in events(workspace) if getattr(e, "reason", "") == "finish_after_failure"]
