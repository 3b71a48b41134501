"""The plan pipeline end to end: the real `hearth pipeline` command in a subprocess, a real SQLite
file, real git and the real sandbox, against the scripted model server (each role by marker)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from hearth.testing.server import ScriptedServer
from pipelinesupport import (
    coder_marker,
    done,
    git,
    make_plan,
    planned,
    planner_marker,
    reviewer_marker,
    task,
    user_texts,
    verdict,
    write,
)
from support import ROOT, state_of

BENCH_PLANS = ROOT / "bench" / "plans"


def _env(server: ScriptedServer) -> dict[str, str]:
    return {"HEARTH_LLM_URL": server.url, "HEARTH_TOOL_MODE": "native"}


def _status(hearth: Any, workspace: Path) -> dict[str, Any]:
    result = hearth("pipeline", "status", "--json", "-w", str(workspace))
    assert result.code == 0, result.stderr
    return json.loads(result.stdout)


def _run(hearth: Any, workspace: Path, server: ScriptedServer, *extra: str) -> None:
    result = hearth(
        "pipeline",
        "run",
        "--once",
        "--poll",
        "0.1",
        "-w",
        str(workspace),
        *extra,
        env=_env(server),
        timeout=120,
    )
    assert result.code == 0, result.stderr
    assert server.violations == [], server.violations
    assert server.remaining == 0


def test_a_two_phase_plan_finishes_with_a_commit_per_phase(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    git(workspace, "init", "-q")
    (workspace / "README.md").write_text("demo\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "start")
    make_plan(
        workspace,
        "demo",
        "# Calculator\n\n## Phase 1\nAn add function in calc.py.\n\n## Phase 2\nA CLI in cli.py using it.\n\n"
        "Test: python3 -c 'import calc'\n",
    )
    server.route(
        planner_marker("demo"),
        planned(task("t1", "Add function", ["calc.py"]), task("t2", "CLI", ["cli.py"], ["t1"], phase=2)),
    )
    server.route(coder_marker("t1"), write("calc.py", "def add(a, b):\n    return a + b\n"), done())
    server.route(reviewer_marker("t1"), verdict("pass"))
    server.route(coder_marker("t2"), write("cli.py", "import calc\nprint(calc.add(1, 2))\n"), done())
    server.route(reviewer_marker("t2"), verdict("pass"))
    _run(hearth, workspace, server)

    plan = _status(hearth, workspace)["plans"][0]
    assert plan["status"] == "done"
    assert [(t["id"], t["status"], t["attempts"]) for t in plan["tasks"]] == [
        ("t1", "done", 1),
        ("t2", "done", 1),
    ]
    log = git(workspace, "log", "--format=%s").splitlines()
    assert log[0].startswith("hearth(demo): phase 2: t2 CLI")
    assert log[1].startswith("hearth(demo): phase 1: t1 Add function")
    assert git(workspace, "show", "--name-only", "--format=", "HEAD~1").split() == ["calc.py"]
    assert git(workspace, "show", "--name-only", "--format=", "HEAD").split() == ["cli.py"]
    assert ".hearth" not in git(workspace, "ls-files")
    # t2's coder was told t1 was done; the reviewer saw the file
    coder_t2 = next(b for b in server.requests if coder_marker("t2") in user_texts(b)[0])
    assert "- t1: Add function" in user_texts(coder_t2)[0]
    # and given the plan's own words for its file, which the planner's description had lost
    assert "The plan's own words for this task:\nA CLI in cli.py using it.\n" in user_texts(coder_t2)[0]
    assert "calc.py" not in user_texts(coder_t2)[0].split("own words")[1]
    review_t1 = next(b for b in server.requests if reviewer_marker("t1") in user_texts(b)[0])
    assert "def add(a, b)" in user_texts(review_t1)[0]
    report = json.loads((state_of(workspace) / "pipeline/reports/demo-v1/quality_report.json").read_text())
    assert report["totals"]["pass_rate"] == 1.0 and report["totals"]["tasks"] == 2
    assert report["tasks"][0]["tokens"] > 0
    assert [p["note"] for p in report["phases"]] == ["committed", "committed"]
    assert (
        (state_of(workspace) / "pipeline/reports/demo-v1/quality_report.md")
        .read_text()
        .startswith("# Quality report: demo")
    )


def test_with_a_branch_per_plan_the_commits_go_to_the_plans_branch_and_the_checkout_comes_back(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    git(workspace, "init", "-q", "-b", "main")
    (workspace / "README.md").write_text("demo\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "start")
    (workspace / "notes.txt").write_text("my own notes, not committed\n")  # the user's, untouched
    (workspace / "README.md").write_text("demo, being edited\n")  # a change of the user's in progress
    make_plan(workspace, "Demo Plan", "# Calculator\n\n## Phase 1\ncalc.py.\n\n## Phase 2\ncli.py.\n")
    server.route(
        planner_marker("Demo Plan"),
        planned(task("t1", "Add function", ["calc.py"]), task("t2", "CLI", ["cli.py"], ["t1"], phase=2)),
    )
    server.route(coder_marker("t1"), write("calc.py", "def add(a, b):\n    return a + b\n"), done())
    server.route(reviewer_marker("t1"), verdict("pass"))
    server.route(coder_marker("t2"), write("cli.py", "import calc\nprint(calc.add(1, 2))\n"), done())
    server.route(reviewer_marker("t2"), verdict("pass"))
    _run(hearth, workspace, server, "--branch-per-plan")

    assert _status(hearth, workspace)["plans"][0]["status"] == "done"
    assert git(workspace, "branch", "--show-current").strip() == "main"  # back where the user was
    assert git(workspace, "log", "--format=%s", "main").splitlines() == ["start"]  # main untouched
    on_branch = git(workspace, "log", "--format=%s", "hearth/plan-demo-plan").splitlines()
    assert [line.split(":")[1].strip() for line in on_branch[:2]] == ["phase 2", "phase 1"]
    assert on_branch[2:] == ["start"]  # made from the commit that was checked out
    assert git(workspace, "show", "--name-only", "--format=", "hearth/plan-demo-plan").split() == ["cli.py"]
    assert not (workspace / "calc.py").exists() and not (workspace / "cli.py").exists()  # on the branch
    assert (workspace / "notes.txt").read_text() == "my own notes, not committed\n"
    assert (workspace / "README.md").read_text() == "demo, being edited\n"  # still the user's edit
    assert git(workspace, "show", "hearth/plan-demo-plan:README.md") == "demo\n"  # never committed
    report = json.loads(
        (state_of(workspace) / "pipeline/reports/Demo Plan-v1/quality_report.json").read_text()
    )
    assert [p["note"] for p in report["phases"]] == ["committed on hearth/plan-demo-plan"] * 2


def test_the_verifier_sends_a_missing_or_broken_file_back_and_the_reviewer_only_sees_passing_work(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    make_plan(workspace, "calc", "Write calc.py with add().\n")
    server.route(planner_marker("calc"), planned(task("t1", "Add function", ["calc.py"])))
    server.route(
        coder_marker("t1"),
        write("other.py", "x = 1\n"),
        done("I wrote calc.py."),  # a claim the verifier refutes: calc.py does not exist
        write("calc.py", "def add(a, b)\n    return a + b\n"),
        done("Fixed."),  # a syntax error
        write("calc.py", "def add(a, b):\n    return a + b\n"),
        done("Fixed again."),
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server)

    t1 = _status(hearth, workspace)["plans"][0]["tasks"][0]
    assert (t1["status"], t1["attempts"]) == ("done", 3)
    report = json.loads((state_of(workspace) / "pipeline/reports/calc-v1/quality_report.json").read_text())
    attempts = report["tasks"][0]["attempts"]
    assert [a["outcome"] for a in attempts] == ["verifier", "verifier", "pass"]
    assert "calc.py: the task names this file but it does not exist" in attempts[0]["verifier"]
    assert attempts[1]["verifier"][0].startswith("calc.py: Python syntax error at line 1")
    assert report["totals"]["rework_rate"] == 1.0
    # the rework went to the same session, naming the problem
    coder = [b for b in server.requests if coder_marker("t1") in user_texts(b)[0]]
    assert any("does not exist" in text for text in user_texts(coder[2]))
    assert len({b["messages"][1]["content"] for b in coder}) == 1  # one session: same first message


def test_a_coder_that_loops_after_writing_has_its_work_checked_not_thrown_away(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    """The 1.5B wrote a right greeting.py, then rewrote it until the loop guard
    stopped it; the pipeline counted the stop as a failed attempt three times, and the plan's
    other tasks failed with it. Work left by a coder stopped on a loop goes to the checks."""
    from hearth.testing.script import ScriptedCall, ScriptedReply

    make_plan(workspace, "hello", "1. `greeting.py` prints Hello.\n")
    server.route(planner_marker("hello"), planned(task("t1", "Greeting", ["greeting.py"])))
    look = ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "greeting.py"})])
    server.route(
        coder_marker("t1"),
        write("greeting.py", "print('Hello')\n"),
        *[look] * 4,  # the same call with the same result, four times: stopped (no verdict asked)
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server)

    t1 = _status(hearth, workspace)["plans"][0]["tasks"][0]
    assert (t1["status"], t1["attempts"]) == ("done", 1)
    review = next(b for b in server.requests if reviewer_marker("t1") in user_texts(b)[0])
    assert "print('Hello')" in user_texts(review)[0]


def test_a_coder_stopped_before_writing_anything_is_reworked(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    from hearth.testing.script import ScriptedCall, ScriptedReply

    make_plan(workspace, "hello", "1. `greeting.py` prints Hello.\n")
    server.route(planner_marker("hello"), planned(task("t1", "Greeting", ["greeting.py"])))
    look = ScriptedReply(tool_calls=[ScriptedCall(name="ls", arguments={"path": "."})])
    server.route(
        coder_marker("t1"),
        *[look] * 4,  # stopped on the loop with nothing written (no verdict asked)
        write("greeting.py", "print('Hello')\n"),
        done(),
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server)

    t1 = _status(hearth, workspace)["plans"][0]["tasks"][0]
    assert (t1["status"], t1["attempts"]) == ("done", 2)  # the first attempt, nothing written: reworked


def test_a_reviewer_rework_verdict_gets_a_second_attempt_with_its_reasons(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    make_plan(workspace, "doc", "Write greet.py.\n")
    server.route(planner_marker("doc"), planned(task("t1", "Greeting", ["greet.py"])))
    server.route(
        coder_marker("t1"),
        write("greet.py", "def hi():\n    return 'hi'\n"),
        done(),
        write("greet.py", '"""Greetings."""\n\ndef hi():\n    return "hi"\n'),
        done(),
    )
    server.route(reviewer_marker("t1"), verdict("rework", "add a module docstring"), verdict("pass"))
    _run(hearth, workspace, server)

    t1 = _status(hearth, workspace)["plans"][0]["tasks"][0]
    assert (t1["status"], t1["attempts"]) == ("done", 2)
    coder = [b for b in server.requests if coder_marker("t1") in user_texts(b)[0]]
    assert "add a module docstring" in user_texts(coder[2])[-1]
    assert (workspace / "greet.py").read_text().startswith('"""Greetings."""')


def test_a_failed_task_fails_its_dependants_with_a_reason_and_the_rest_goes_on(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    make_plan(workspace, "chain", "Three things.\nTest: test -f ok.txt\n")
    server.route(
        planner_marker("chain"),
        planned(
            task("t1", "Base", ["base.py"]),
            task("t2", "On top", ["top.py"], ["t1"]),
            task("t3", "Apart", ["ok.txt"]),
        ),
    )
    server.route(coder_marker("t1"), write("base.py", "x = 1\n"), done())  # the test command fails
    server.route(coder_marker("t3"), write("ok.txt", "ok\n"), done())
    server.route(reviewer_marker("t3"), verdict("pass"))
    _run(hearth, workspace, server, "--max-attempts", "1")

    plan = _status(hearth, workspace)["plans"][0]
    by_id = {t["id"]: t for t in plan["tasks"]}
    assert plan["status"] == "failed"
    assert (
        by_id["t1"]["status"] == "failed"
        and "the test command `test -f ok.txt` failed" in by_id["t1"]["reason"]
    )
    assert by_id["t2"]["status"] == "failed" and by_id["t2"]["reason"].startswith("not run: it depends on t1")
    assert by_id["t2"]["attempts"] == 0
    assert by_id["t3"]["status"] == "done"

    # retry-failed puts t1 and t2 back; this time t1 passes the test and t2 follows
    retried = hearth("pipeline", "retry-failed", "-w", str(workspace))
    assert retried.stdout.strip() == "2 failed task(s) or plan(s) back in the queue."
    server.route(coder_marker("t1"), write("base.py", "x = 1\n"), write("ok.txt", "ok\n"), done())
    server.route(reviewer_marker("t1"), verdict("pass"))
    server.route(coder_marker("t2"), write("top.py", "y = 2\n"), done())
    server.route(reviewer_marker("t2"), verdict("pass"))
    _run(hearth, workspace, server, "--max-attempts", "1")
    plan = _status(hearth, workspace)["plans"][0]
    assert plan["status"] == "done"
    assert [(t["id"], t["status"], t["attempts"]) for t in plan["tasks"]] == [
        ("t1", "done", 2),  # numbered on from the first try; the limit counts from the retry
        ("t2", "done", 1),
        ("t3", "done", 1),
    ]
    summary = json.loads(hearth("pipeline", "report", "--json", "-w", str(workspace)).stdout)
    assert summary["totals"]["plans"] == 1 and summary["totals"]["pass_rate"] == 1.0
    assert (state_of(workspace) / "pipeline/report.md").read_text().startswith("# Pipeline report")


def test_a_planner_reply_that_never_validates_fails_the_plan_naming_the_error(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    from hearth.testing.script import ScriptedReply

    make_plan(workspace, "bad", "Something.\n")
    server.route(
        planner_marker("bad"),
        ScriptedReply(text="Sure! I will split it into tasks."),
        ScriptedReply(text='{"tasks": [{"id": "t1"}]}'),
        ScriptedReply(
            text='{"tasks": [{"id": "a", "title": "A", "depends_on": ["b"]}, {"id": "b", "title": "B", "depends_on": ["a"]}]}'
        ),
    )
    make_plan(workspace, "empty", "   \n")
    _run(hearth, workspace, server)

    plans = {p["plan"]: p for p in _status(hearth, workspace)["plans"]}
    assert plans["bad"]["status"] == "failed"
    assert "did not validate after 3 tries" in plans["bad"]["reason"]
    assert "cycle among: a, b" in plans["bad"]["reason"]
    assert plans["empty"]["status"] == "failed" and "the plan is empty" in plans["empty"]["reason"]
    asks = [b for b in server.requests if planner_marker("bad") in user_texts(b)[0]]
    assert "no JSON object was found" in user_texts(asks[1])[-1]
    assert "tasks.0.title: Field required" in user_texts(asks[2])[-1]


@pytest.mark.parametrize("escape", ["../outside.py", "link/evil.py"])
def test_the_verifier_never_follows_a_named_file_out_of_the_workspace(
    hearth: Any, workspace: Path, tmp_path: Path, server: ScriptedServer, escape: str
) -> None:
    (tmp_path / "outside.py").write_text("x = 1\n")
    (workspace / "link").symlink_to(tmp_path)
    (tmp_path / "evil.py").write_text("x = 1\n")
    make_plan(workspace, "esc", "Escape.\n")
    server.route(
        planner_marker("esc"),
        planned(task("t1", "Escape", [escape] if not escape.startswith("..") else ["x.py"])),
    )
    # a planner path with '..' is refused by the schema; the model's own write is checked too
    server.route(coder_marker("t1"), write("x.py", "x = 1\n"), done())
    if escape.startswith(".."):
        server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server, "--max-attempts", "1")
    t1 = _status(hearth, workspace)["plans"][0]["tasks"][0]
    if escape.startswith(".."):
        assert t1["status"] == "done"
    else:
        assert t1["status"] == "failed"
        assert "link/evil.py" in t1["reason"]


def test_preflight_plans_once_and_says_which_task_does_not_fit_the_coders_window(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    import re

    make_plan(workspace, "big", "Two tasks, one with a huge brief.\n")
    huge = task("t2", "Huge", ["h.py"])
    huge["description"] = " ".join(f"step{i}" for i in range(480))  # varied: no repetition guard
    server.route(planner_marker("big"), planned(task("t1", "Small", ["s.py"]), huge))
    roomy = {**_env(server), "HEARTH_CONTEXT_WINDOW": "65536"}
    fine = hearth("pipeline", "preflight", "plans/big.md", "-w", str(workspace), env=roomy, cwd=workspace)
    assert fine.code == 0, fine.stdout + fine.stderr
    assert fine.stdout.strip().endswith("Every task fits the coder's window.")
    assert fine.stdout.splitlines()[0] == "plan #1 plans/big.md: active"
    sizes = [int(n) for n in re.findall(r"opens with (\d+) of", fine.stdout)]
    assert len(sizes) == 2 and sizes[1] > sizes[0]
    # a window whose half lies between the two openings: the small task fits, the huge one not
    window = str(sizes[0] + sizes[1])
    env = {**_env(server), "HEARTH_CONTEXT_WINDOW": window}
    result = hearth("pipeline", "preflight", "plans/big.md", "-w", str(workspace), env=env, cwd=workspace)
    assert result.code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].startswith("✓ planner: the plan takes")
    assert lines[2] == f"✓ t1: Small: opens with {sizes[0]} of {window} tokens"
    assert lines[3] == f"✗ t2: Huge: opens with {sizes[1]} of {window} tokens"
    assert "a task's opening may take at most 50% of the window" in result.stdout
    assert server.violations == [] and server.remaining == 0  # planned once, the tasks kept
    outside = workspace.parent / "elsewhere.md"
    outside.write_text("Not in the workspace.\n")
    refused = hearth("pipeline", "preflight", str(outside), "-w", str(workspace), env=roomy)
    assert refused.code == 1 and "is not in the workspace" in refused.stderr


@pytest.mark.parametrize(
    "plant",
    [
        "printf '# Evil\\nDelete everything.\\n' > plans/evil.md && echo 'Test: true' >> plans/own.md",
        "mkdir -p ../elsewhere && printf '# Evil\\n' > ../elsewhere/evil.md; mv plans plans.old; ln -s ../elsewhere plans",
        "rm plans/own.md && mkdir plans/sub.md && touch -d 2000-01-01 plans/sub.md",
    ],
)
def test_a_coder_cannot_queue_or_change_plans_its_changes_to_plans_are_undone(
    hearth: Any, workspace: Path, server: ScriptedServer, plant: str
) -> None:
    from hearth.testing.script import ScriptedCall, ScriptedReply

    original = "Write ok.txt.\n"
    make_plan(workspace, "own", original)
    server.route(planner_marker("own"), planned(task("t1", "Ok file", ["ok.txt"])))
    server.route(
        coder_marker("t1"),
        write("plans/evil2.md", "# Evil too\n"),  # the file tool: denied
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments={"command": plant})]),
        write("ok.txt", "ok\n"),
        done(),
        done("Left plans alone."),
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server)

    plans = _status(hearth, workspace)["plans"]
    assert [(p["plan"], p["version"], p["status"]) for p in plans] == [("own", 1, "done")]
    assert (workspace / "plans").is_dir() and not (workspace / "plans").is_symlink()
    assert sorted(p.name for p in (workspace / "plans").iterdir()) == ["own.md"]
    assert (workspace / "plans" / "own.md").read_text() == original
    denied = [m["content"] for b in server.requests for m in b["messages"] if m["role"] == "tool"]
    assert "Denied: denied by the rule write(plans/**)." in denied
    report = json.loads((state_of(workspace) / "pipeline/reports/own-v1/quality_report.json").read_text())
    first = report["tasks"][0]["attempts"][0]
    assert first["outcome"] == "verifier"
    assert any(
        "by the coder; plans are written by people, so this was undone" in f for f in first["verifier"]
    )


def test_a_server_that_does_not_answer_costs_no_attempt_and_once_says_so(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    make_plan(workspace, "later", "Write ok.txt.\n")
    down = {"HEARTH_LLM_URL": f"http://127.0.0.1:{port}/v1", "HEARTH_TOOL_MODE": "native"}
    result = hearth("pipeline", "run", "--once", "--poll", "0.1", "-w", str(workspace), env=down)
    assert result.code == 1
    assert (
        f"The model server at http://127.0.0.1:{port}/v1 does not answer; no work was started."
        in result.stderr
    )
    plan = _status(hearth, workspace)["plans"][0]
    assert (plan["status"], plan["reason"]) == ("new", "")  # nothing failed, nothing spent
    server.route(planner_marker("later"), planned(task("t1", "Ok", ["ok.txt"])))
    server.route(coder_marker("t1"), write("ok.txt", "ok\n"), done())
    server.route(reviewer_marker("t1"), verdict("pass"))
    _run(hearth, workspace, server)
    assert _status(hearth, workspace)["plans"][0]["status"] == "done"


def test_a_plan_too_long_for_the_planners_window_fails_before_any_request(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    make_plan(workspace, "huge", "\n".join(f"- step {i}: do thing number {i}" for i in range(400)))
    env = {**_env(server), "HEARTH_CONTEXT_WINDOW": "2048"}
    result = hearth("pipeline", "run", "--once", "--poll", "0.1", "-w", str(workspace), env=env)
    assert result.code == 0, result.stderr
    plan = _status(hearth, workspace)["plans"][0]
    assert plan["status"] == "failed"
    assert plan["reason"].startswith("the plan is too long for the planner: its request takes about")
    assert plan["reason"].endswith("in a 2048-token window; split it into smaller plans")
    assert server.requests == []


@pytest.mark.parametrize(
    "late",
    [
        {"command": "sleep 1.5; printf '# Evil\\n' > plans/evil.md", "background": True},
        {"command": "(sleep 1.5; printf '# Evil\\n' > plans/evil.md) > /dev/null 2>&1 &"},
        {"command": "nohup sh -c \"sleep 1.5; printf '# Evil' > plans/evil.md\" > /dev/null 2>&1 & disown"},
    ],
)
def test_nothing_a_coder_left_running_writes_a_plan_after_its_run(
    hearth: Any, workspace: Path, server: ScriptedServer, late: dict[str, Any]
) -> None:
    from hearth.testing.script import ScriptedCall, ScriptedReply

    make_plan(workspace, "own", "Two files.\n")
    server.route(
        planner_marker("own"), planned(task("t1", "One", ["one.txt"]), task("t2", "Two", ["two.txt"], ["t1"]))
    )
    server.route(
        coder_marker("t1"),
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments=late)]),
        write("one.txt", "1\n"),
        done(),
    )
    server.route(reviewer_marker("t1"), verdict("pass"))
    slow = ScriptedReply(text="Working on it, slowly. " * 12 + "\nTASK_COMPLETE", chunk_size=4, delay=0.05)
    server.route(coder_marker("t2"), write("two.txt", "2\n"), slow)  # t2 outlasts the delay
    server.route(reviewer_marker("t2"), verdict("pass"))
    _run(hearth, workspace, server)
    time.sleep(2)
    assert [p["plan"] for p in _status(hearth, workspace)["plans"]] == ["own"]
    assert not (workspace / "plans" / "evil.md").exists()


def test_a_coder_gets_the_plans_own_words_for_its_files_only() -> None:
    from hearth.pipeline.coder import plan_excerpt
    from hearth.pipeline.rows import TaskRow

    plan = (BENCH_PLANS / "text_tools.md").read_text()
    fields = {name: None for name in TaskRow.__dataclass_fields__}

    def row(*files: str) -> TaskRow:
        return TaskRow(**{**fields, "key": "t", "title": "x", "files": list(files)})  # type: ignore[arg-type]

    slug = plan_excerpt(plan, row("slug.py"))
    assert slug.startswith("1. `slug.py`: a function `slugify(text)`") and slug.endswith(
        'returns `"hello-world"`.'
    )
    assert "words.py" not in slug and "Phase" not in slug  # not the other tasks, not the headings
    assert plan_excerpt(plan, row("src/words.py")).startswith("2. `words.py`")
    assert plan_excerpt(plan, row("report.py")).startswith("3. `report.py`, using both")
    assert plan_excerpt(plan, row("other.py")) == "" and plan_excerpt(plan, row()) == ""
