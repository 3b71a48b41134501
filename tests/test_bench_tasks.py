"""The task suite itself: every check can fail and can pass; the runner works end to end."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hearth.apps.bench.runners import hearth_runner
from hearth.apps.bench.suite import run_suite
from hearth.apps.bench.tasks import check, load_tasks, prepare
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer

TASKS = Path(__file__).resolve().parents[1] / "bench" / "tasks"
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
    from hearth.apps.bench.suite import server_prefill

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
    from hearth.apps.bench.report import BenchReport, TrialResult, load_report, side_by_side

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
