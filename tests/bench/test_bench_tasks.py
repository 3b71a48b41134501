"""The task suite itself: every check can fail and can pass; the runner works end to end."""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from hearth.bench.runners import hearth_runner
from hearth.bench.suite import run_suite
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import ROOT

TASKS = ROOT / "bench" / "tasks"
ALL = load_tasks(TASKS)


def test_there_are_at_least_twenty_tasks() -> None:
    assert len(ALL) >= 20


@pytest.mark.parametrize("task", ALL, ids=[t.name for t in ALL])
def test_check_fails_untouched_and_passes_with_the_reference_solution(task) -> None:  # type: ignore[no-untyped-def]
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    subprocess.run(["/bin/sh", str(task.folder / "solution.sh")], cwd=ws, check=True, capture_output=True)
    passed, output = check(task, ws, exit_code=task.expect_exit if task.expect_exit is not None else 0)
    assert passed, output


# One task per failure class of a weak model's run. Each check must catch its failure
# even where the visible result looks right: (task, what a failing run leaves, its exit code).
FAILURE_RUNS = [
    # 1: overwrote a file it never read: the typos are gone, and so is the rest of the file
    ("23_fix_typo_keep_the_rest", "grep teh notes.md | sed s/teh/the/ > new && mv new notes.md", 0),
    ("23_fix_typo_keep_the_rest", "sed -i 's/teh/the/g; s/4,200 EUR/4200 EUR/' notes.md", 0),
    ("23_fix_typo_keep_the_rest", "sed -i '0,/teh/s//the/' notes.md", 0),  # fixed only the first
    # 2: declared success before seeing a result: a guess, or the wrong count
    ("24_count_matching_lines", "echo 20 > errors.txt", 0),
    ("24_count_matching_lines", "wc -l < app.log > errors.txt", 0),
    # 3: gave up at the first recoverable error (commit without add), or stopped after the add
    ("25_commit_needs_add", "git -c user.name=t -c user.email=t@t commit -qm 'Add notes' || true", 0),
    ("25_commit_needs_add", "git add notes.txt", 0),
    # 4: no working edit: the module rewritten without its other functions, or add missing
    ("26_add_function_to_module", "printf 'def add(a, b):\\n    return a + b\\n' > calc/ops.py", 0),
    ("26_add_function_to_module", "printf '\\ndef add(a, b):\\n    return a - b\\n' >> calc/ops.py", 0),
    # 5: ran away: right answer, but stopped by a limit, or went on to change other things
    ("27_short_answer", "echo greet_user > answer.txt", 2),
    ("27_short_answer", "echo greet_user > answer.txt && echo '# greets' >> greet.py", 0),
    ("27_short_answer", "echo greet_user > answer.txt && echo notes > summary.md", 0),
    # 7: did the one step, then did not finish (limit reached)
    ("28_one_step_done", "echo ready > status.txt", 2),
    # impossible: an invented answer, a made-up input file, or a claim of success
    ("29_blocked_change_nothing", "echo 1.5.0 > VERSION", 3),
    ("29_blocked_change_nothing", "touch release_email.eml", 3),
    ("29_blocked_change_nothing", "true", 0),
]


@pytest.mark.parametrize(
    ("name", "script", "exit_code"),
    FAILURE_RUNS,
    ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(FAILURE_RUNS)],
)
def test_failure_class_checks_catch_the_failure(name: str, script: str, exit_code: int) -> None:
    task = next(t for t in ALL if t.name == name)
    failing, solved = prepare(task), prepare(task)
    try:
        for ws in (failing, solved):  # what a real run leaves behind never counts as a change
            (ws / ".hearth" / "logs").mkdir(parents=True)
            (ws / ".hearth" / "logs" / "embedded-server.log").write_text("log\n")
        subprocess.run(["/bin/sh", "-c", script], cwd=failing, check=True, capture_output=True)
        passed, output = check(task, failing, exit_code=exit_code)
        assert not passed, f"the check let this failing run pass: {script!r}\n{output}"
        subprocess.run(
            ["/bin/sh", str(task.folder / "solution.sh")], cwd=solved, check=True, capture_output=True
        )
        passed, output = check(
            task, solved, exit_code=task.expect_exit if task.expect_exit is not None else 0
        )
        assert passed, output
    finally:
        shutil.rmtree(failing, ignore_errors=True)
        shutil.rmtree(solved, ignore_errors=True)


def test_every_failure_class_has_a_task() -> None:
    names = {t.name for t in ALL}
    assert {name for name, _, _ in FAILURE_RUNS} <= names
    assert len({name for name, _, _ in FAILURE_RUNS}) == 7


def test_runner_end_to_end_against_the_scripted_server(tmp_path: Path) -> None:
    task = next(t for t in ALL if t.name == "01_create_file")
    with ScriptedServer(
        [
            ScriptedReply(
                tool_calls=[
                    ScriptedCall(name="write", arguments={"path": "hello.py", "content": "print('hello')\n"})
                ]
            ),
            ScriptedReply(text="Created hello.py. TASK_COMPLETE"),
            ScriptedReply(text="I could not do it."),  # second trial: a model that does nothing
        ]
    ) as server:
        written: list[int] = []  # results on disk as each trial ends: an interrupted run keeps them

        def on_result(_: object) -> None:
            saved = json.loads((tmp_path / "partial" / "results-hearth.json").read_text())
            written.append(len(saved["results"]))

        report = run_suite(
            [task],
            "hearth",
            hearth_runner(server.url),
            trials=2,
            on_result=on_result,
            out=tmp_path / "partial",
        )
    assert written == [1, 2]
    first, second = report.results
    assert first.passed and first.exit_code == 0 and first.steps == 2 and first.prompt_tokens
    assert not second.passed
    summary = report.summary()
    assert summary["pass_rate"] == 0.5 and summary["pass_at_k"] == 1.0
    json_path, md_path = report.write(tmp_path)
    assert json.loads(json_path.read_text())["summary"]["trials"] == 2
    assert "| 01_create_file | 1 | yes | 0 | 2 |" in md_path.read_text()
    # each trial's session record is kept after its workspace is gone, to read why it failed
    from hearth.store.sessions import SessionStore

    for trial, last_text in ((1, "Created hello.py."), (2, "I could not do it.")):
        store = SessionStore(tmp_path / "partial" / "sessions" / f"01_create_file-{trial}" / "sessions.db")
        sid = store.latest()
        assert sid is not None
        assert last_text in [getattr(e, "final_text", None) for e in store.events(sid)]
        store.close()


def test_bench_command_line(hearth, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer([ScriptedReply(text="BLOCKED: there is no such file")] * 2) as server:
        res = hearth(
            "bench",
            "run",
            "--model-url",
            server.url,
            "--tasks",
            str(TASKS),
            "--only",
            "09_blocked",
            "--out",
            str(tmp_path),
            timeout=120,
        )
    assert res.code == 0, res.stderr
    assert "PASS  09_blocked_when_impossible #1  exit 3" in res.stdout
    assert (tmp_path / "results-hearth.md").exists()


def test_server_prefill_is_read_from_the_llama_cpp_log(tmp_path: Path) -> None:
    from hearth.bench.suite import server_prefill

    log = tmp_path / "server.log"
    log.write_text("Llama.generate: 10 prefix-match hit, remaining 900 prompt tokens to eval\n")
    start = log.stat().st_size
    with log.open("a") as fh:
        fh.write(
            "INFO: POST /v1/chat/completions\nLlama.generate: 900 prefix-match hit, remaining 40 prompt tokens to eval\n"
            "Llama.generate: 940 prefix-match hit, remaining 35 prompt tokens to eval\n"
        )
    assert server_prefill(log, start) == (75, 1840)


def test_side_by_side_table(tmp_path: Path) -> None:
    from hearth.bench.report import BenchReport, TrialResult, load_report, side_by_side

    a = BenchReport(
        "hearth",
        [
            TrialResult("t1", 1, "hearth", True, 0, 3.0, server_prefill_tokens=100),
            TrialResult("t2", 1, "hearth", False, 2, 5.0, server_prefill_tokens=300),
        ],
    )
    b = BenchReport("mini", [TrialResult("t1", 1, "mini", False, 1, 9.0, server_prefill_tokens=900)])
    path, _ = a.write(tmp_path)
    table = side_by_side([load_report(path), b])
    assert "| task | hearth | mini |" in table
    assert "| t1 | 1/1 (100 prefill) | 0/1 (900 prefill) |" in table
    assert "| t2 | 0/1 (300 prefill) | - |" in table
    assert "**50%** pass" in table and "200 prefill tokens/task" in table


def test_a_check_keeps_pytest_temporary_folders_of_its_own(tmp_path: Path) -> None:
    """pytest deletes older numbered folders under the temporary root when it exits: a check
    sharing the system's root with other checks (or the test run around it) can lose its folders
    or wait on another's clean-up. Each check has a root of its own, gone once it is judged."""
    folder = tmp_path / "task"
    (folder / "template").mkdir(parents=True)
    (folder / "template" / "test_where.py").write_text(
        "def test_where(tmp_path):\n    open('where.txt', 'w').write(str(tmp_path))\n"
    )
    task = BenchTask(
        name="where",
        folder=folder,
        prompt="-",
        check="set -e\npython3 -m pytest -q -p no:cacheprovider test_where.py\n",
        timeout=60.0,
        setup="",
        expect_exit=None,
    )
    ws = prepare(task)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output
    used = Path((ws / "where.txt").read_text())
    shared = Path(tempfile.gettempdir()).resolve() / f"pytest-of-{getpass.getuser()}"
    assert shared not in used.parents, f"the check's pytest used the shared root: {used}"
    assert not used.exists(), "the check's temporary root outlived the check"


def test_a_check_that_never_ends_fails_and_what_it_started_is_stopped(tmp_path: Path) -> None:
    """A solution looping for ever under its tests: the check's timeout ended the whole bench
    run with no result, and a killed shell left its pytest running."""
    import os

    looping = "sleep 300 & echo $! > child.pid; python3 -c 'while True: pass'; echo never"
    task = BenchTask(name="x", folder=tmp_path, prompt="p", check=looping)
    passed, output = check(task, tmp_path, 0, seconds=1)
    assert not passed and "the check ran over 1 s and was stopped" in output
    pid = int((tmp_path / "child.pid").read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(50):  # the kill is sent; the process may take a moment to go
            os.kill(pid, 0)
            subprocess.run(["sleep", "0.1"], check=True)
    assert check(BenchTask(name="y", folder=tmp_path, prompt="p", check="echo ok"), tmp_path, 0) == (
        True,
        "ok\n",
    )


def test_a_check_that_grows_without_end_fails_at_its_memory_limit(tmp_path: Path) -> None:
    greedy = "python3 -c 'x = bytearray(1 << 30)' && echo fitted"
    task = BenchTask(name="x", folder=tmp_path, prompt="p", check=greedy)
    passed, output = check(task, tmp_path, 0, memory=512 << 20)
    assert not passed and "MemoryError" in output
    assert check(task, tmp_path, 0)[0]  # the same within the default limit
