"""The harness's defences against weak models, and compaction and prompt-size behaviour.

Each test replays, through the real `hearth` command line and the scripted OpenAI-compatible
server over HTTP, the reply a small model really gave, and checks the rule that now catches it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hearth.agent.done import CHECK_ID
from hearth.core.events import (
    Compacted,
    Finished,
    ModelReply,
    ModelUsed,
    Notice,
    Reflected,
    SessionStarted,
    ToolResult,
    WindowLearned,
)
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli, state_of

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"


def fenced(name: str, **args: object) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": args}) + "\n```"


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def run(hearth, server: ScriptedServer, ws: Path, task: str = "do the task", **env: str):  # type: ignore[no-untyped-def]
    res = hearth(
        "run",
        task,
        "-w",
        str(ws),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", **env},
    )
    assert "Traceback" not in res.stdout + res.stderr, res.stderr[-2000:]
    assert server.violations == []
    return res


def events(ws: Path) -> list[Any]:
    store = SessionStore(state_of(ws) / "sessions.db")
    [info] = store.list_sessions()[:1]
    return store.events(info.id)


def results(ws: Path) -> list[ToolResult]:
    return [e for e in events(ws) if isinstance(e, ToolResult)]


def notices(ws: Path, reason: str) -> list[Notice]:
    return [e for e in events(ws) if isinstance(e, Notice) and e.reason == reason]


def reflecting(event: Any) -> bool:
    return isinstance(event, ModelUsed) and event.purpose == "reflection"


def finished(ws: Path) -> Finished:
    """The session's end: its last event, or the one before the reflection on its work (and what
    the reflection's request cost)."""
    tail = [e for e in events(ws) if not isinstance(e, Reflected) and not reflecting(e)]
    assert isinstance(tail[-1], Finished)
    return tail[-1]


def last_user_text(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def files(ws: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(ws)): p.read_bytes()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".hearth" not in p.parts and ".git" not in p.parts
    }


# 1. Overwriting a file it never read


def test_write_and_edit_refuse_an_existing_file_that_was_not_read(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "geometry.py").write_text(ORIGINAL)
    server.add(
        call("edit", path="geometry.py", old="w * h", new="w*h", replace_all=True),
        call("write", path="geometry.py", content="def area(w, h):\n    pass\n"),  # invented content
        call("read", path="geometry.py"),
        call("edit", path="geometry.py", old="return w * h", new="return float(w * h)"),
        ScriptedReply(text="Made area return a float. TASK_COMPLETE"),
    )
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stdout[-1500:]
    first, second, read, edit = results(workspace)
    assert not first.ok and "have not read it" in first.output and "read path='geometry.py'" in first.output
    assert not second.ok and "have not read it" in second.output
    assert read.ok and edit.ok
    assert (workspace / "geometry.py").read_text() == ORIGINAL.replace("return w * h", "return float(w * h)")


def test_a_file_changed_since_it_was_read_must_be_read_again(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "notes.txt").write_text("one\n")

    def someone_edits(body: dict[str, Any]) -> ScriptedReply:
        (workspace / "notes.txt").write_text("one\ntwo, added by the user\n")
        return call("write", path="notes.txt", content="one\nthree\n")

    server.add(
        call("read", path="notes.txt"),
        someone_edits,
        call("read", path="notes.txt"),
        call("write", path="notes.txt", content="one\ntwo, added by the user\nthree\n"),
        ScriptedReply(text="Added three. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace).code == 0
    refused = results(workspace)[1]
    assert not refused.ok and "changed since you last read it" in refused.output
    assert (workspace / "notes.txt").read_text() == "one\ntwo, added by the user\nthree\n"


def test_files_the_agent_made_or_read_stay_known_after_a_resume(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "old.txt").write_text("kept\n")
    server.add(
        call("write", path="new.txt", content="1\n"),
        call("write", path="new.txt", content="2\n"),  # its own file: no read needed
        call("read", path="old.txt"),
        ScriptedReply(text="Done for now. TASK_COMPLETE"),
    )
    first = run(hearth, server, workspace)
    assert first.code == 0 and all(r.ok for r in results(workspace))
    sid = first.json_lines()[0]["session"]
    server.add(
        call("write", path="old.txt", content="changed\n"),
        call("write", path="never-read.txt", content="x"),
        ScriptedReply(text="Done. TASK_COMPLETE"),
    )
    (workspace / "never-read.txt").write_text("the user's\n")
    again = hearth(
        "run", "now change them", "--resume", sid, "-w", str(workspace), "--json", "--permission", "auto",
        env={"HEARTH_LLM_URL": server.url},
    )  # fmt: skip
    assert again.code == 0, again.stdout[-1500:] + again.stderr
    *_, old, never = results(workspace)
    assert old.ok and (workspace / "old.txt").read_text() == "changed\n"
    assert not never.ok and (workspace / "never-read.txt").read_text() == "the user's\n"


# 2. Declaring success before seeing a result


def test_a_finish_next_to_a_call_with_an_invented_result_waits_for_the_real_one(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (workspace / name).write_text(name)
    server.add(
        ScriptedReply(
            text=fenced("ls") + "\nResult of ls:\na.txt\nb.txt\n\nThere are 2 files.\nTASK_COMPLETE",
        ),
        ScriptedReply(text="There are 3 files: a.txt, b.txt and c.txt.\nTASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, "How many files are there?", HEARTH_TOOL_MODE="text")
    assert res.code == 0
    assert len(server.requests) == 2  # the model was shown the real listing and answered again
    assert "c.txt" in last_user_text(server.requests[1])
    assert finished(workspace).final_text == "There are 3 files: a.txt, b.txt and c.txt."


def test_text_that_imitates_a_tool_result_is_not_recorded_as_the_answer(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(
        ScriptedReply(text="I counted them.\nObservation: 7 files\n\n```output\n7\n```\nThe answer is 7."),
    )
    assert run(hearth, server, workspace).code == 0
    answer = finished(workspace).final_text
    assert answer == "I counted them.\nThe answer is 7."


# 3. Giving up at the first recoverable error


def _git_repo(ws: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(ws)], check=True)
    for key, value in (("user.name", "T"), ("user.email", "t@example.com")):
        subprocess.run(["git", "config", key, value], cwd=ws, check=True)
    (ws / "app.py").write_text("print(1)\n")
    subprocess.run(["git", "add", "app.py"], cwd=ws, check=True)
    subprocess.run(["git", "commit", "-qm", "start"], cwd=ws, check=True)
    (ws / "app.py").write_text("print(2)\n")


def test_blocked_after_an_error_that_names_its_remedy_is_pushed_back_with_it(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    _git_repo(workspace)
    server.add(
        call("git_commit", message="print 2"),
        ScriptedReply(text="BLOCKED: git commit failed."),
        call("git_add", paths=["app.py"]),
        call("git_commit", message="print 2"),
        ScriptedReply(text="Committed. TASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, "Commit the change to app.py")
    assert res.code == 0, res.stdout[-2000:]
    assert not results(workspace)[0].ok
    [pushed] = notices(workspace, "blocked_after_error")
    assert "git add" in pushed.text
    assert "git add" in last_user_text(server.requests[2])
    log = subprocess.run(["git", "log", "--oneline"], cwd=workspace, capture_output=True, text=True).stdout
    assert "print 2" in log


def test_an_impossible_task_still_ends_blocked_with_exit_3_and_changes_nothing(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    (workspace / "readme.md").write_text("hello\n")
    before = files(workspace)
    server.add(
        call("read", path="plans/secret_plan.txt"),
        ScriptedReply(text="BLOCKED: the file does not exist."),
        call("ls"),
        ScriptedReply(text="BLOCKED: there is no plans/secret_plan.txt in the workspace."),
    )
    res = run(hearth, server, workspace, "Summarise plans/secret_plan.txt")
    assert res.code == 3
    assert finished(workspace).reason == "there is no plans/secret_plan.txt in the workspace."
    assert len(notices(workspace, "blocked_after_error")) == 1  # pushed back once, then it stands
    assert files(workspace) == before


# 4. Inventing tools


def test_an_invented_tool_gets_the_real_tools_and_the_one_that_does_it(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("add", a=1, b=2),
        call("reed", path="x.py"),
        call("write", path="calc.py", content="def add(a, b):\n    return a + b\n"),
        ScriptedReply(text="Added add(a, b) to calc.py. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace, "Add a function add(a, b) to calc.py").code == 0
    invented, misspelt, write = results(workspace)
    assert not invented.ok and "'add' is not a tool" in invented.output
    assert "write creates a file" in invented.output and "edit changes one" in invented.output
    assert "read, write, edit" in invented.output  # the real tools are listed
    assert "Did you mean 'read'?" in misspelt.output
    assert write.ok


# 5. Running away


def test_each_reply_is_capped_and_the_cap_rises_only_when_a_call_is_cut(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    cut = '```json\n{"name": "write", "arguments": {"path": "big.py", "content": "x = 1\\ny = '
    script = [
        ScriptedReply(text=cut, finish_reason="length"),
        call("write", path="big.py", content="x = 1\ny = 2\n"),
        ScriptedReply(text="Wrote big.py. TASK_COMPLETE"),
    ]
    with ScriptedServer(script, context_window=32768) as server:
        assert run(hearth, server, workspace, HEARTH_TOOL_MODE="auto").code == 0
    caps = [body.get("max_tokens") for body in server.requests]
    assert caps == [4096, 8192, 8192]
    [notice] = notices(workspace, "reply_cut")
    assert "in the middle of a tool call" in notice.text and "8192 tokens" in notice.text
    assert (workspace / "big.py").read_text() == "x = 1\ny = 2\n"  # the cut call never wrote half a file
    cut_result, write = results(workspace)
    assert not cut_result.ok and "cut off before this call was complete" in cut_result.output
    assert write.ok


def test_a_reply_cut_by_the_cap_without_a_call_is_not_taken_as_the_answer(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(
        ScriptedReply(text="Let me think about this at length. " * 20, finish_reason="length"),
        ScriptedReply(text="Short answer: 42. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace).code == 0
    assert finished(workspace).final_text == "Short answer: 42."
    assert server.requests[1]["max_tokens"] == 4096  # not raised: no call was cut


def test_a_stream_that_repeats_itself_is_stopped(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    full = "I will now check the file again.\n" * 3000
    server.add(
        ScriptedReply(text=full, chunk_size=16, delay=0.002), ScriptedReply(text="Checked. TASK_COMPLETE")
    )
    res = run(hearth, server, workspace)
    assert res.code == 0
    [reply, _] = [e for e in events(workspace) if isinstance(e, ModelReply)]
    assert reply.finish_reason == "repetition"
    # stopped early: what was read is a small part of the reply the server would have streamed
    assert len(reply.text) < len(full) // 10, len(reply.text)
    assert 2 <= reply.text.count("I will now check the file again.") <= 6  # a few rounds kept, not 3000
    assert "kept repeating" in notices(workspace, "reply_cut")[0].text


# 6. compaction when the window is unknown


def summarising(replies: list[ScriptedReply], then: ScriptedReply) -> list[Any]:
    """A script that answers compaction's summary requests apart from the conversation."""
    queue = list(replies)

    def respond(body: dict[str, Any]) -> ScriptedReply:
        if "You summarise" in body["messages"][0]["content"]:
            return ScriptedReply(text="Read a.txt several times; nothing else was done.")
        return queue.pop(0) if queue else then

    return [respond] * (len(replies) + 20)


def agent_requests(server: ScriptedServer) -> list[dict[str, Any]]:
    return [b for b in server.requests if "You summarise" not in b["messages"][0]["content"]]


def test_an_unknown_window_never_makes_a_short_session_compact(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    """30 small steps against a server that reports no window."""
    (workspace / "a.txt").write_text("alpha\n" * 20)
    steps = [call("read", path="a.txt", offset=i % 20 + 1, limit=2) for i in range(29)]
    script = summarising(steps, ScriptedReply(text="Looked. TASK_COMPLETE"))
    with ScriptedServer(script, context_window=None) as server:
        res = run(hearth, server, workspace, HEARTH_MAX_ITERATIONS="40")
        assert res.code == 0, res.stdout[-1500:]
        assert len(agent_requests(server)) == 30
        assert len(server.requests) - 30 <= 1  # at most one summary request
    started = next(e for e in events(workspace) if isinstance(e, SessionStarted))
    assert started.context_window == 4096  # shown as assumed
    assert len([e for e in events(workspace) if isinstance(e, Compacted)]) <= 1


def test_the_window_is_learned_from_the_servers_overflow_error(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "a.txt").write_text("alpha beta gamma delta\n" * 120)
    overflow = ScriptedReply(status=400, error="Requested tokens (5210) exceed context window of 4096")
    steps = [
        *[call("read", path="a.txt", offset=i + 1) for i in range(3)],
        overflow,
        *[call("read", path="a.txt", offset=i + 10) for i in range(8)],
    ]
    with ScriptedServer(
        summarising(steps, ScriptedReply(text="Read it. TASK_COMPLETE")), context_window=None
    ) as server:
        # Text mode: the full set's native schemas (34 tools, about 2,600 tokens) leave too little
        # of a 4,096-token window once learned; the tools in text fit.
        res = run(hearth, server, workspace, HEARTH_MAX_ITERATIONS="30", HEARTH_TOOL_MODE="text")
        assert res.code == 0, res.stdout[-2000:]
        requests = agent_requests(server)
    compactions = [e for e in events(workspace) if isinstance(e, Compacted)]
    assert "overflowed" in compactions[0].reason
    assert any(c.reason == "near the context window" for c in compactions[1:])  # learned: compacts ahead
    # every request after the error fits the learned window with its reply cap (chars/4, as the
    # scripted server counts), and once the summary settles, even by chars/3.5 (an overestimate)
    assert all(len(json.dumps(b)) / 4 + b["max_tokens"] <= 4096 for b in requests[4:])
    assert all(len(json.dumps(b)) / 3.5 < 4096 for b in requests[6:])
    [learned] = [e for e in events(workspace) if isinstance(e, WindowLearned)]
    assert learned.window == 4096 and "overflow" in learned.reason


def test_a_stream_broken_by_an_overflow_is_asked_plainly_and_the_window_learned(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    """llama-cpp-python's server breaks a stream whose prompt is past the window before the
    first chunk (a 1.5B pipeline run went on to 8,600 tokens in an 8,192 window,
    every request failing as 'closed the stream'). Asked again without streaming, it states the
    window; the session learns it, compacts and finishes."""
    (workspace / "a.txt").write_text("alpha beta gamma delta\n" * 120)
    steps = [call("read", path="a.txt", offset=i + 1) for i in range(12)]
    with ScriptedServer(
        summarising(steps, ScriptedReply(text="Read it. TASK_COMPLETE")),
        context_window=4096,
        flavor="llama-cpp-python",
    ) as server:
        res = run(hearth, server, workspace, HEARTH_MAX_ITERATIONS="30", HEARTH_TOOL_MODE="text")
        assert res.code == 0, res.stdout[-2000:]
        assert server.overflows[:2] == [True, False]  # the broken stream, then the plain request
        assert len(server.overflows) == 2  # after learning, nothing overflows again
    [learned] = [e for e in events(workspace) if isinstance(e, WindowLearned)]
    assert learned.window == 4096 and "overflow" in learned.reason
    assert [e for e in events(workspace) if isinstance(e, Compacted)]
    assert finished(workspace).final_text == "Read it."


def test_a_full_tool_list_that_would_fill_half_a_small_window_gives_way_to_the_core_tools(
    hearth: HearthCli, workspace: Path
) -> None:
    """A larger model (full profile, native calls) served with a 4,096-token window: once the
    window is learned, the 34 schemas (~2,600 tokens) are replaced by the six core tools, so the
    work fits; the others stay callable."""
    (workspace / "a.txt").write_text("alpha beta gamma delta\n" * 60)
    steps = [
        call("read", path="a.txt", offset=1, limit=5),
        call("get_time"),  # not listed once the list is tight, still callable
        *[call("read", path="a.txt", offset=i + 10, limit=5) for i in range(4)],
    ]
    with ScriptedServer(
        summarising(steps, ScriptedReply(text="Read it. TASK_COMPLETE")),
        model="big-coder-14b",
        context_window=4096,
        flavor="llama-cpp-python",
    ) as server:
        res = run(
            hearth,
            server,
            workspace,
            HEARTH_MAX_ITERATIONS="30",
            HEARTH_TOOL_MODE="native",
            HEARTH_TOOLS_ON_DEMAND="false",  # every schema in full: more than half the window
        )
        assert res.code == 0, res.stdout[-2000:]
        assert server.overflows == [True, False]  # the full list did not fit; asked plainly: 4,096
        requests = agent_requests(server)  # those answered: all after the window was learned
    names = [sorted(t["function"]["name"] for t in b.get("tools") or []) for b in requests]
    tight = ["edit", "grep", "ls", "read", "shell", "write"]
    assert names[0] == tight
    assert names[-1] == sorted([*tight, "get_time"])  # called once: shown from then on
    assert all(len(json.dumps(b)) / 4 + b["max_tokens"] <= 4096 for b in requests)
    [learned] = [e for e in events(workspace) if isinstance(e, WindowLearned)]
    assert learned.window == 4096
    assert any(r.name == "get_time" and r.ok for r in events(workspace) if isinstance(r, ToolResult))


def test_a_resumed_session_keeps_the_window_it_learned(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    """The learned window is an event: a resume against the same silent server starts from it
    instead of the assumed one, so it compacts ahead and never overflows again."""
    (workspace / "a.txt").write_text("alpha beta gamma delta\n" * 120)
    overflow = ScriptedReply(status=400, error="Requested tokens (5210) exceed context window of 4096")
    first = [*[call("read", path="a.txt", offset=i + 1) for i in range(3)], overflow]
    with ScriptedServer(
        summarising(first, ScriptedReply(text="Read it. TASK_COMPLETE")), context_window=None
    ) as server:
        assert run(hearth, server, workspace).code == 0
    assert [e.window for e in events(workspace) if isinstance(e, WindowLearned)] == [4096]
    more = [call("read", path="a.txt", offset=i + 10) for i in range(8)]
    with ScriptedServer(
        summarising(more, ScriptedReply(text="Read more. TASK_COMPLETE")), context_window=None
    ) as server:
        res = hearth(
            "run", "read it again", "-w", str(workspace), "--json", "--permission", "auto", "--continue",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", "HEARTH_MAX_ITERATIONS": "30"},
        )  # fmt: skip
        assert res.code == 0, res.stdout[-2000:]
        requests = agent_requests(server)
    assert len(requests) == 9  # no overflow error needed this time
    assert all(len(json.dumps(b)) / 4 + b["max_tokens"] <= 4096 for b in requests)
    compactions = [e for e in events(workspace) if isinstance(e, Compacted)]
    assert any(c.reason == "near the context window" for c in compactions)


# 7. Finishing in its own words


def test_a_claim_in_its_own_words_after_successful_read_only_checks_is_a_finish(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    server.add(
        ScriptedReply(
            text="Wrote it.\n# Task Complete",
            tool_calls=[
                ScriptedCall(name="write", arguments={"path": "hello.py", "content": "print('hello')\n"})
            ],
        ),
        ScriptedReply(
            text="Checking the file.\n\n# Task Complete",
            tool_calls=[ScriptedCall(name="read", arguments={"path": "hello.py"})],
        ),
        call("write", path="hello.py", content="print('hello, improved')\n"),  # never reached
    )
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stdout[-1500:]
    assert len(server.requests) == 2
    assert (workspace / "hello.py").read_text() == "print('hello')\n"
    assert finished(workspace).final_text == "Checking the file."


@pytest.mark.parametrize(
    "claim", ["**Task completed.**", "The task is complete!", "# Task Complete", "Task is now done."]
)
def test_usual_spellings_of_a_completion_claim_are_recognised(hearth, server, workspace, claim: str) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text=f"Wrote the file.\n{claim}"))
    assert run(hearth, server, workspace).code == 0
    assert finished(workspace).final_text == "Wrote the file."


def test_talking_about_completion_mid_sentence_is_not_a_claim() -> None:
    from hearth.agent.finish import claims_completion

    assert not claims_completion("Once the task is complete, I will run the tests.")
    assert not claims_completion("I will mark the task done after checking.")
    assert claims_completion("All good.\nTASK_COMPLETE")


# 8. Tool mode by what the model does; the small-model profile


@pytest.mark.parametrize(("style", "mode"), [("text", "text"), ("native", "auto"), ("none", "auto")])
def test_a_probe_chooses_the_tool_mode_by_what_the_model_does(
    hearth: HearthCli, workspace: Path, style: str, mode: str
) -> None:
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")] * 3, tool_style=style) as server:
        assert run(hearth, server, workspace).code == 0
        tool_probes = [p for p in server.probes if "response_format" not in p]
        assert len(tool_probes) == 1 and tool_probes[0]["max_tokens"] == 64
        started = next(e for e in events(workspace) if isinstance(e, SessionStarted))
        assert started.tool_mode == mode
        assert ("tools" in server.requests[0]) == (mode != "text")
        asked = len(server.probes)  # the tool probe, and for a small model the action probe
        run(hearth, server, workspace)
        assert len(server.probes) == asked  # remembered for this server and model
        other = workspace.parent / f"other-{style}"
        other.mkdir()
        run(hearth, server, other)
        # in the user's data, not the workspace: a new folder does not ask again
        assert len(server.probes) == asked
        assert not (other / ".hearth" / "tool_modes.json").exists()


def test_a_small_model_gets_fewer_tools_a_worked_example_and_one_call_per_reply(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    two_calls = ScriptedReply(
        tool_calls=[
            ScriptedCall(name="write", arguments={"path": "a.txt", "content": "a"}),
            ScriptedCall(name="write", arguments={"path": "b.txt", "content": "b"}),
        ]
    )
    hidden = call("glob", pattern="*.txt")  # not shown to a small model, still callable
    script = [two_calls, hidden, ScriptedReply(text="Wrote a.txt. TASK_COMPLETE")]
    with ScriptedServer(script, model="qwen2.5-coder-1.5b-instruct") as server:
        res = run(hearth, server, workspace, HEARTH_MODEL="qwen2.5-coder-1.5b-instruct")
        assert res.code == 0
        body = server.requests[0]
    names = [t["function"]["name"] for t in body["tools"]]
    assert set(names) == {"read", "write", "edit", "ls", "grep", "shell"}
    assert body["max_tokens"] == 2048
    system = body["messages"][0]["content"]
    assert '{"path": "notes.txt"}' in system and "one tool call per reply" in system
    assert (workspace / "a.txt").exists() and not (workspace / "b.txt").exists()
    assert "one tool call per reply" in results(workspace)[1].output
    assert results(workspace)[2].ok and "a.txt" in results(workspace)[2].output  # glob ran
    assert "glob" not in system and "git_commit" not in system


def test_a_larger_model_keeps_the_full_toolset(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text="Hi. TASK_COMPLETE"))
    env = {"HEARTH_MODEL": "qwen2.5-coder-32b-instruct", "HEARTH_TOOLS_ON_DEMAND": "false"}
    assert run(hearth, server, workspace, **env).code == 0
    # 22 default, create_patch, delegate, decompose, 3 memory, get_time, data_view, python
    assert len(server.requests[0]["tools"]) == 34
    assert server.requests[0]["max_tokens"] == 4096


@pytest.mark.parametrize(
    ("served", "asked", "style", "small"),
    [
        ("local", "", "text", True),  # llama-cpp-python --model_alias: size unknown, calls as text
        ("local", "", "native", False),  # size unknown, structured calls: the full profile
        ("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "", "native", True),  # the server's id says 1.5B
        ("local", "qwen2.5-coder-32b-instruct", "text", False),  # a named size wins over the probe
    ],
)
def test_the_small_profile_when_the_server_hides_the_models_size(
    hearth: HearthCli, workspace: Path, served: str, asked: str, style: str, small: bool
) -> None:
    """Real runs against llama-cpp-python (`--model_alias local`) got the full profile (22 tools,
    the long prompt, no one-call rule) for the 1.5B model: its size was nowhere in a name."""
    with ScriptedServer(
        [ScriptedReply(text="Hi. TASK_COMPLETE")], model=served, tool_style=style, context_window=None
    ) as server:
        assert run(hearth, server, workspace, HEARTH_MODEL=asked).code == 0
        body = server.requests[-1]
    system = body["messages"][0]["content"]
    assert ("one tool call per reply" in system) == small
    assert body["max_tokens"] == (2048 if small else 4096)


def test_the_cap_never_asks_for_more_than_the_window_leaves(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer(
        [ScriptedReply(text="Hi. TASK_COMPLETE")], context_window=4096, flavor="vllm"
    ) as server:
        assert run(hearth, server, workspace).code == 0
        body = server.requests[0]
    prompt = len(json.dumps(body["messages"])) + len(json.dumps(body["tools"]))
    assert body["max_tokens"] + prompt / 3.5 <= 4096  # vLLM refuses prompt + max_tokens > window


# Replayed from a real session with Qwen2.5-Coder-1.5B on llama-cpp-python (text mode): after a
# call it wrote the result itself, a second call inside that made-up result, and Hearth's own footer.
REAL_REPLY = (
    '```json\n{"name": "write", "arguments": {"path": "geometry.py", "content": '
    '"def perimeter(w, h):\\n    return 2 * (w + h)\\n"}}\n```\n\nResult of write:\n```json\n'
    '{"name": "read", "arguments": {"path": "geometry.py"}}\n```\n\nResult of read:\n```json\n'
    "1: def area(w, h):\n2:     return w * h\n```\n\nContinue: call the next tool, or if the task is "
    "done, give a short summary and TASK_COMPLETE."
)


def test_calls_and_claims_after_an_imitated_result_are_not_acted_on(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "geometry.py").write_text("def area(w, h):\n    return w * h\n\n\nW = 2\n")
    server.add(
        ScriptedReply(text=fenced("read", path="geometry.py")),
        ScriptedReply(text=REAL_REPLY),
        ScriptedReply(
            text=fenced(
                "edit",
                path="geometry.py",
                old="W = 2\n",
                new="W = 2\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n",
            )
        ),
        ScriptedReply(text="Added perimeter. TASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, "Add perimeter(w, h) to geometry.py", HEARTH_TOOL_MODE="text")
    assert res.code == 0, res.stdout[-2000:]
    replies = [e for e in events(workspace) if isinstance(e, ModelReply)]
    assert [c.name for c in replies[1].tool_calls] == ["write"]  # not the read inside the made-up result
    assert notices(workspace, "claim_with_calls") == []  # the echoed footer is not a claim
    read, rewrite, edit = results(workspace)
    # a whole-file rewrite of a file just read is an edit: it goes through (its result parses)
    assert read.ok and rewrite.ok and not edit.ok  # the edit's `old` is gone with the rewrite
    assert "def perimeter(w, h)" in (workspace / "geometry.py").read_text()
    assert all(b.get("stop") == ["\nResult of "] for b in server.requests)  # the server stops imitations


def test_a_whole_file_rewrite_after_a_read_is_not_turned_into_an_append(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Replayed from a real 1.5B run: "Not changed: this write would delete 9 of the 9 lines" met
    a whole-file rewrite of a file just read; the model then appended its new version, leaving
    both. Now the rewrite goes through; only one that would empty the file is refused."""
    old = "".join(f"line {n}\n" for n in range(9))
    (workspace / "notes.md").write_text(old)
    fresh = "# Plan\n\nStart again.\n"
    server.add(
        call("read", path="notes.md"),
        call("write", path="notes.md", content="\n"),
        call("write", path="notes.md", content=fresh),
        ScriptedReply(text="Replaced the notes. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace, "Replace notes.md with a fresh plan").code == 0
    _, emptied, rewrite = results(workspace)
    assert not emptied.ok and "empty" in emptied.output
    assert rewrite.ok and (workspace / "notes.md").read_text() == fresh


def test_a_rewrite_that_breaks_a_python_file_is_refused_with_the_error(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "geometry.py").write_text(ORIGINAL)
    server.add(
        call("read", path="geometry.py"),
        call("write", path="geometry.py", content="def area(w, h:\n    return w * h\n"),
        ScriptedReply(text="TASK_COMPLETE"),
    )
    run(hearth, server, workspace)
    broken = results(workspace)[1]
    assert not broken.ok and "not valid Python (line 1" in broken.output
    assert (workspace / "geometry.py").read_text() == ORIGINAL


def test_replace_all_that_fixes_words_inside_lines_deletes_no_line(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Replayed from a real 1.5B run: replace_all of a misspelt word in a 3-line file was refused
    with "this edit would delete 2 of the 3 lines", and the typos stayed."""
    (workspace / "notes.txt").write_text("teh cat\nteh dog\nbird\n")
    server.add(
        call("read", path="notes.txt"),
        call("edit", path="notes.txt", old="teh", new="the", replace_all=True),
        ScriptedReply(text="Fixed. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace, "Fix the typos in notes.txt").code == 0
    assert results(workspace)[1].ok
    assert (workspace / "notes.txt").read_text() == "the cat\nthe dog\nbird\n"


@pytest.mark.parametrize(
    "finish",
    [
        ScriptedReply(text='```json\n{"name": "task_complete"}\n```'),  # replayed from a real 1.5B run
        ScriptedReply(tool_calls=[ScriptedCall(name="finish", arguments={"summary": "Wrote a.txt."})]),
    ],
)
def test_a_made_up_finish_tool_is_taken_as_the_completion_claim_it_is(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, finish: ScriptedReply
) -> None:
    server.add(call("write", path="a.txt", content="a"), finish)
    res = run(hearth, server, workspace)
    assert res.code == 0 and len(server.requests) == 2
    assert finished(workspace).reason == "the model said the task is complete"
    assert "```" not in finished(workspace).final_text
    assert len(results(workspace)) == 1  # the made-up tool was not "called"


def test_a_bare_done_after_each_call_ends_the_task_once_checks_pass(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Replayed from a real 1.5B run: every reply was one call and then "Done."; the session ran
    until the loop guard stopped it. Now the claim counts once a read-only check after it worked."""
    (workspace / "geometry.py").write_text("def area(w, h):\n    return w * h\n")
    both = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
    server.add(
        ScriptedReply(text=fenced("read", path="geometry.py") + "\nDone."),
        ScriptedReply(text=fenced("write", path="geometry.py", content=both) + "\nDone."),
        ScriptedReply(text=fenced("read", path="geometry.py") + "\nDone."),
        ScriptedReply(text=fenced("write", path="geometry.py", content=both) + "\nDone."),  # never reached
    )
    res = run(hearth, server, workspace, "Add perimeter(w, h) to geometry.py", HEARTH_TOOL_MODE="text")
    assert res.code == 0, res.stdout[-1500:]
    assert len(server.requests) == 3 and (workspace / "geometry.py").read_text() == both
    assert finished(workspace).final_text == fenced("read", path="geometry.py")


def test_an_edit_that_deletes_most_lines_of_a_file_is_refused(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "geometry.py").write_text(ORIGINAL)
    server.add(
        call("read", path="geometry.py"),
        call("edit", path="geometry.py", old=ORIGINAL, new="pass\n"),
        ScriptedReply(text="TASK_COMPLETE"),
    )
    run(hearth, server, workspace)
    dropped = results(workspace)[1]
    assert not dropped.ok and "keep the old lines in `new`" in dropped.output
    assert (workspace / "geometry.py").read_text() == ORIGINAL


def test_done_inside_a_sentence_is_not_a_claim() -> None:
    from hearth.agent.finish import claims_completion

    assert not claims_completion("Done reading; now I will edit it.\n" + fenced("edit", path="a"))
    assert claims_completion(fenced("read", path="a") + "\nAll done!")


# Found in real runs of the README's first command (bench/RESULTS.md)


def test_two_calls_in_one_fence_the_first_incomplete_both_reach_the_model(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """The 0.5B model's first reply to "Create hello.py that prints hello, then read it back":
    a write without content and a read in one fence, then TASK_COMPLETE. Only the read was seen
    (the write vanished), so the model never heard that its write lacked content."""
    server.add(
        ScriptedReply(
            text='```json\n{"name": "write", "arguments": {"path": "hello.py"}}\n'
            '{"name": "read", "arguments": {"path": "hello.py"}}\nTASK_COMPLETE\n```'
        ),
        ScriptedReply(text=fenced("write", path="hello.py", content="print('hello')\n")),
        ScriptedReply(text=fenced("read", path="hello.py")),
        ScriptedReply(text="Created hello.py; it prints hello.\nTASK_COMPLETE"),
    )
    res = run(
        hearth,
        server,
        workspace,
        "Create hello.py that prints hello, then read it back",
        HEARTH_TOOL_MODE="text",
        HEARTH_MODEL_PROFILE="small",
    )
    assert res.code == 0, res.stdout[-1500:]
    first_write, not_run = results(workspace)[:2]
    assert first_write.name == "write" and not first_write.ok and "content" in first_write.output
    assert not_run.name == "read" and not not_run.ok and "one tool call per reply" in not_run.output
    assert "content" in last_user_text(server.requests[1])  # the model heard what was missing
    assert (workspace / "hello.py").read_text() == "print('hello')\n"


def test_a_small_model_is_shown_the_workspaces_files_with_its_first_task(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Real 1.5B runs on 'fix recieve in three places' guessed `src/main.ts`, or wrote the task
    into a new `project.txt`, without looking: a small model gets the file names up front."""
    (workspace / "docs").mkdir()
    (workspace / "docs" / "guide.md").write_text("recieve\n")
    (workspace / "app.py").write_text("# recieve\n")
    (workspace / ".env").write_text("SECRET=1\n")
    (workspace / "node_modules").mkdir()
    (workspace / "node_modules" / "x.js").write_text("")
    server.add(ScriptedReply(text="Looked. TASK_COMPLETE"), ScriptedReply(text="Again. TASK_COMPLETE"))
    assert run(hearth, server, workspace, "Fix recieve everywhere", HEARTH_MODEL_PROFILE="small").code == 0
    shown = last_user_text(server.requests[0])
    assert "app.py\ndocs/\ndocs/guide.md" in shown
    assert ".env" not in shown and "node_modules" not in shown and ".hearth" not in shown
    assert "git" not in shown  # not a repository: no git tools named
    system = server.requests[0]["messages"][0]["content"]
    assert "app.py" not in system  # the system prompt stays the same for every task (prefix cache)
    res = hearth(
        "run", "and now the rest", "-w", str(workspace), "--json", "--permission", "auto", "--continue",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_MODEL_PROFILE": "small"},
    )  # fmt: skip
    assert res.code == 0
    assert "docs/guide.md" not in last_user_text(server.requests[1])  # once per session


def test_a_larger_model_is_not_given_the_listing(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    (workspace / "app.py").write_text("x = 1\n")
    server.add(ScriptedReply(text="Hi. TASK_COMPLETE"))
    assert run(hearth, server, workspace, HEARTH_MODEL="qwen2.5-coder-32b-instruct").code == 0
    assert "app.py" not in json.dumps(server.requests[0]["messages"])


def test_an_empty_workspace_gets_no_listing(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Told "(the workspace is empty)", the real 1.5B answered BLOCKED to 'Create status.txt'."""
    server.add(ScriptedReply(text=fenced("write", path="status.txt", content="ready\n")))
    server.add(ScriptedReply(text="Wrote status.txt.\nTASK_COMPLETE"))
    res = run(hearth, server, workspace, "Create status.txt containing ready.", HEARTH_MODEL_PROFILE="small")
    assert res.code == 0
    assert not [e for e in events(workspace) if getattr(e, "reason", "") == "files"]
    assert "empty" not in json.dumps(server.requests[0]["messages"])


def test_the_listing_is_capped(tmp_path: Path) -> None:
    from hearth.agent.overview import workspace_overview

    assert workspace_overview(tmp_path) == ""
    for i in range(45):
        (tmp_path / f"f{i:02}.txt").write_text("")
    listing = workspace_overview(tmp_path).splitlines()
    assert len(listing) == 41 and listing[-1] == "... and 5 more"


def test_in_a_git_repository_a_small_model_is_told_its_git_tools(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """A real 1.5B run of 'stage README.md and commit it' read and rewrote README.md for ten
    minutes: the small prompt shows no git tool. In a repository they are named with the files."""
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "README.md").write_text("# Project\nMore text.\n")
    server.add(
        ScriptedReply(text=fenced("git_add", paths=["README.md"])),
        ScriptedReply(text=fenced("git_commit", message="Update readme")),
        ScriptedReply(text="Committed README.md.\nTASK_COMPLETE"),
    )
    res = run(
        hearth, server, workspace, "Stage README.md and commit it with the message 'Update readme'.",
        HEARTH_MODEL_PROFILE="small", HEARTH_TOOL_MODE="text",
    )  # fmt: skip
    assert res.code == 0, res.stdout[-1500:]
    shown = last_user_text(server.requests[0])
    assert (
        "git repository" in shown
        and "- git_commit(message: string, amend?: boolean, squash?: integer)" in shown
        and "- git_add(paths: array)" in shown
    )
    assert "git_commit" not in server.requests[0]["messages"][0]["content"]  # the system prompt is unchanged
    log = subprocess.run(["git", "-C", str(workspace), "log", "--format=%s"], capture_output=True, text=True)
    assert log.stdout.strip() == "Update readme"


def test_a_finish_right_after_calls_that_were_not_run_is_pushed_back_once(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """The real 1.5B reply to 'stage README.md and commit it': six calls and a finish in one reply.
    Only git_status ran (one call per reply); the next reply was `{"name": "TASK_COMPLETE"}` and
    was taken as done, with nothing committed."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(workspace)], check=True)
    (workspace / "README.md").write_text("# Project\n")
    git = ["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    (workspace / "README.md").write_text("# Project\nMore text.\n")
    plan = "\n\n".join(
        [
            fenced("git_status"),
            fenced("git_add", paths=["README.md"]),
            fenced("git_commit", message="Update readme"),
            '```json\n{"name": "TASK_COMPLETE"}\n```',
        ]
    )
    server.add(
        ScriptedReply(text=plan),
        ScriptedReply(text='```json\n{"name": "TASK_COMPLETE"}\n```'),
        ScriptedReply(text=fenced("git_add", paths=["README.md"])),
        ScriptedReply(text=fenced("git_commit", message="Update readme")),
        ScriptedReply(text="Committed.\nTASK_COMPLETE"),
    )
    res = run(
        hearth,
        server,
        workspace,
        "Stage README.md and commit it.",
        HEARTH_MODEL_PROFILE="small",
        HEARTH_TOOL_MODE="text",
    )
    assert res.code == 0, res.stdout[-1500:]
    # The stream was stopped once the plan's first call was complete: the rest was never generated.
    first = next(e for e in events(workspace) if isinstance(e, ModelReply))
    assert first.finish_reason == "one_call" and [c.name for c in first.tool_calls] == ["git_status"]
    assert "git_add" not in first.text
    [pushed] = notices(workspace, "calls_not_run")
    assert "stopped after its first tool call" in pushed.text
    assert "stopped after its first tool call" in last_user_text(server.requests[2])
    log = subprocess.run([*git, "log", "-1", "--format=%s"], capture_output=True, text=True)
    assert log.stdout.strip() == "Update readme"


def test_a_second_finish_after_the_push_back_stands(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    plan = fenced("ls") + "\n\n" + fenced("read", path="a.txt") + "\nTASK_COMPLETE"
    (workspace / "a.txt").write_text("a\n")
    server.add(
        ScriptedReply(text=plan),
        ScriptedReply(text="Listed it.\nTASK_COMPLETE"),
        ScriptedReply(text="It really is done.\nTASK_COMPLETE"),
    )
    res = run(hearth, server, workspace, HEARTH_MODEL_PROFILE="small", HEARTH_TOOL_MODE="text")
    assert res.code == 0
    assert len(notices(workspace, "calls_not_run")) == 1
    assert finished(workspace).final_text == "It really is done."


def test_checks_repeated_at_the_start_of_a_plan_are_skipped_so_the_next_step_runs(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """The real 1.5B sent its whole plan in every reply (git_status, git_diff, git_add, ...):
    with one call per reply only the first, an unchanged check, ran each time."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(workspace)], check=True)
    (workspace / "notes.txt").write_text("a dark theme\n")
    plan = "\n\n".join(
        [
            fenced("git_status"),
            fenced("git_diff", staged=True),
            fenced("git_add", paths=["notes.txt"]),
            fenced("git_commit", message="Add notes"),
        ]
    )
    server.add(*[ScriptedReply(text=plan)] * 6, ScriptedReply(text="Committed notes.txt.\nTASK_COMPLETE"))
    res = run(
        hearth,
        server,
        workspace,
        "Commit notes.txt with the message 'Add notes'.",
        HEARTH_MODEL_PROFILE="small",
        HEARTH_TOOL_MODE="text",
    )
    assert res.code == 0, res.stdout[-2000:]
    ran = [
        r.name
        for r in results(workspace)
        if r.ok and not r.output.startswith("Not run again") and not r.call_id.startswith(CHECK_ID)
    ]
    # after git_add changed the index the checks are new again and run; git_add is not repeated
    assert ran == ["git_status", "git_diff", "git_add", "git_status", "git_diff", "git_commit"]
    log = subprocess.run(
        ["git", "-C", str(workspace), "log", "-1", "--format=%s"], capture_output=True, text=True
    )
    assert log.stdout.strip() == "Add notes"


def test_the_loop_notice_offers_blocked_when_what_the_task_needs_is_not_there(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Task 09 with the real 1.5B: the report to summarise does not exist; it alternated `ls` and
    `read notes.txt` until the guard stopped it (exit 2). The notice only offered TASK_COMPLETE."""
    (workspace / "notes.txt").write_text("Nothing else here.\n")
    server.add(
        *[call("ls", path="."), call("read", path="notes.txt")] * 3,
        ScriptedReply(text="BLOCKED: there is no quarterly_report.docx in the workspace."),
    )
    res = run(
        hearth,
        server,
        workspace,
        "Summarise quarterly_report.docx into summary.txt.",
        HEARTH_MODEL_PROFILE="small",
    )
    assert res.code == 3, res.stdout[-1500:]
    notice = notices(workspace, "loop")[0]
    assert "BLOCKED" in notice.text and "TASK_COMPLETE" in notice.text
    assert not (workspace / "summary.txt").exists()


def test_a_model_that_ignores_the_loop_notice_and_changed_nothing_ends_at_the_limit(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Task 09 with the real 1.5B: it alternated `ls` and `read notes.txt` through the loop
    notice until the guard stopped it. Nothing changed and it never said BLOCKED: the limit
    (exit 2), not blocked; no model is asked afterwards (asked, the 1.5B said BLOCKED of doable
    and finished work alike)."""
    (workspace / "notes.txt").write_text("Nothing else here.\n")
    server.add(*[call("ls", path="."), call("read", path="notes.txt")] * 4)
    res = run(
        hearth,
        server,
        workspace,
        "Summarise the file quarterly_report.docx in this folder into summary.txt.",
        HEARTH_MODEL_PROFILE="small",
    )
    assert res.code == 2, res.stdout[-1500:]
    assert len(notices(workspace, "loop")) == 1 and len(server.requests) == 8
    assert "alternated" in finished(workspace).reason
    assert not (workspace / "summary.txt").exists()


def test_a_cycle_of_three_calls_is_a_loop_too(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """The pipeline's coder with the real 1.5B: having written slug.py, it went
    `ls`, `read slug.py`, `write slug.py` (the same content) 30 times, until the context broke.
    Three rounds of a cycle of three calls get a loop notice; a fourth stops it, and it is asked
    for its verdict."""
    content = "def slugify(text):\n    return text.replace(' ', '-').lower()\n"
    rounds = [
        call("write", path="slug.py", content=content),
        call("ls", path="."),
        call("read", path="slug.py"),
    ]
    server.add(*rounds * 4, ScriptedReply(text="slug.py has slugify. TASK_COMPLETE"))
    res = run(
        hearth, server, workspace, "Create slug.py with a slugify function.", HEARTH_MAX_ITERATIONS="40"
    )
    assert res.code == 0, res.stdout[-1500:]
    [loop] = notices(workspace, "loop")
    assert "the same 3 calls over and over (write -> ls -> read)" in loop.text
    assert len(server.requests) == 12  # 12 calls, no verdict request; never the 30 of the real run
    assert "the same 3 calls in a cycle 4 times" in finished(workspace).reason


def test_text_meant_to_be_added_to_a_file_is_appended_not_written_over_it(hearth, server, workspace) -> None:  # type: ignore[no-untyped-def]
    """Tasks 13 and 26 with the real 1.5B: asked to add a line to todo.txt or a
    function to calc/ops.py, it sent `write` with only the new text, again and again. The refusal
    now names `append=true`, which adds the text on a line of its own and loses nothing."""
    (workspace / "todo.txt").write_text("Call Ana\nPay rent\n")
    (workspace / "ops.py").write_text(
        '"""Ops."""\n\n\ndef sub(a, b):\n    return a - b'
    )  # no newline at the end
    server.add(
        call("write", path="todo.txt", content="\nBuy milk"),
        call("write", path="todo.txt", content="\nBuy milk", append=True),
        call("write", path="ops.py", content="\n\ndef add(a, b):\n    return a + b\n", append=True),
        ScriptedReply(text="Added both. TASK_COMPLETE"),
    )
    res = run(
        hearth,
        server,
        workspace,
        "Add the line 'Buy milk' at the end of todo.txt.",
        HEARTH_MODEL_PROFILE="small",
    )
    assert res.code == 0, res.stdout[-1500:]
    refused, appended, added = results(workspace)
    assert not refused.ok and "append=true" in refused.output
    assert appended.ok and appended.output == "Appended to todo.txt: it now has 3 lines."
    assert (workspace / "todo.txt").read_text() == "Call Ana\nPay rent\nBuy milk\n"
    assert added.ok
    assert (
        workspace / "ops.py"
    ).read_text() == '"""Ops."""\n\n\ndef sub(a, b):\n    return a - b\n\ndef add(a, b):\n    return a + b\n'


def test_a_small_model_cannot_confirm_wiping_a_file_by_sending_the_write_again(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Task 26 with the real 1.5B: refused once, the same destructive write sent again went
    through and calc/ops.py lost its functions. A small model repeats itself by nature."""
    original = '"""Ops."""\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n'
    (workspace / "ops.py").write_text(original)
    server.add(
        call("read", path="ops.py"),
        *[call("write", path="ops.py", content="def add(a, b):\n    return a + b")] * 2,
        call("write", path="ops.py", content="def add(a, b):\n    return a + b", append=True),
        ScriptedReply(text="Added add. TASK_COMPLETE"),
    )
    assert run(hearth, server, workspace, "Add add(a, b) to ops.py", HEARTH_MODEL_PROFILE="small").code == 0
    _, first, second, appended = results(workspace)
    assert not first.ok and not second.ok and "would remove every function" in second.output
    assert "(mul, sub)" in second.output and "append=true" in second.output and "rm " not in second.output
    assert appended.ok
    assert (workspace / "ops.py").read_text() == original + "def add(a, b):\n    return a + b\n"


def test_the_first_look_names_the_files_the_task_mentions_that_are_not_there(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Task 09 with the real 1.5B: asked to summarise quarterly_report.docx, which
    does not exist, it summarised notes.txt into summary.txt instead."""
    (workspace / "notes.txt").write_text("Nothing else here.\n")
    server.add(*[ScriptedReply(text="BLOCKED: quarterly_report.docx is not in the workspace.")] * 3)
    res = run(
        hearth,
        server,
        workspace,
        "Summarise quarterly_report.docx and notes.txt into summary.txt.",
        HEARTH_MODEL_PROFILE="small",
    )
    shown = last_user_text(server.requests[0])
    assert "Named in the task but not in the workspace now: quarterly_report.docx, summary.txt" in shown
    assert res.code == 3 and not (workspace / "summary.txt").exists()


def test_blocked_before_trying_with_the_named_file_right_there_is_pushed_back_twice_naming_it(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    """Task 27 with the real 1.5B: 'BLOCKED: the task does not provide the path to
    greet.py', twice, with greet.py in the workspace and in the listing it was given."""
    (workspace / "greet.py").write_text("def greet_user(name):\n    return name\n")
    blocked = ScriptedReply(text="BLOCKED: The task does not provide the path to greet.py.")
    server.add(
        blocked,
        blocked,
        call("read", path="greet.py"),
        call("write", path="answer.txt", content="greet_user"),
        ScriptedReply(text="Wrote greet_user. TASK_COMPLETE"),
    )
    task = "What is the name of the function defined in greet.py? Write just the name into answer.txt."
    res = run(hearth, server, workspace, task, HEARTH_MODEL_PROFILE="small")
    assert res.code == 0, res.stdout[-1500:]
    pushed = notices(workspace, "blocked_early")
    assert len(pushed) == 2 and all("in the workspace: greet.py. Read them first." in n.text for n in pushed)
    assert (workspace / "answer.txt").read_text() == "greet_user"


def test_blocked_before_trying_is_pushed_back_once_when_the_task_names_no_file_that_is_there(
    hearth: HearthCli, server: ScriptedServer, workspace: Path
) -> None:
    blocked = ScriptedReply(text="BLOCKED: there is no report.docx.")
    server.add(blocked, blocked)
    assert run(hearth, server, workspace, "Summarise report.docx", HEARTH_MODEL_PROFILE="small").code == 3
    [pushed] = notices(workspace, "blocked_early")
    assert "Read them first" not in pushed.text
