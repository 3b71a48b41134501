"""The third held-out suite (bench/heldout3: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout3` makes into bench/heldout3/exercises): every check fails on
the untouched task and passes with its reference solution. These tasks are only for measuring;
no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.suite_checks import (
    BENCH,
    GIT_ID,
    find_task,
    solve,
)
from hearth.bench.report import BenchReport, TrialResult, load_report
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout3")
EXERCISES = load_tasks(BENCH / "heldout3" / "exercises")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_bug_fix_is_judged_beyond_the_workspace_tests() -> None:
    """A fix that special-cases the tests' inputs passes them but not the check's own inputs."""
    task = _task("k11")
    ws = prepare(task)
    (ws / "durations.py").write_text(
        'def parse_duration(text):\n    return {"45s": 45, "2h": 7200, "1h30m": 5400, "2m15s": 135}[text]\n'
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_top_option_without_a_test_fails() -> None:
    task = _task("k12")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_freq.py").write_text((task.folder / "template" / "test_freq.py").read_text())
    assert "--top" in (ws / "freq.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_copied_but_not_moved_function_fails() -> None:
    task = _task("k13")
    ws = prepare(task)
    orders = (ws / "orders.py").read_text()
    solve(task, ws)
    (ws / "orders.py").write_text(orders)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "orders.py still defines format_price" in output


def test_a_pyproject_that_loses_another_key_fails() -> None:
    task = _task("k14")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "pyproject.toml").read_text()
    (ws / "pyproject.toml").write_text(text.replace('requires-python = ">=3.10"\n', ""))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_committing_the_local_config_changes_too_fails() -> None:
    task = _task("k16")
    ws = prepare(task)
    subprocess.run(
        ["sed", "-i", "s/instalation/installation/g; s/Instalation/Installation/g", "README.md"], cwd=ws
    )
    subprocess.run(
        ["git", "commit", "-qam", "Fix spelling in README"],
        cwd=ws,
        check=True,
        env={"PATH": "/usr/bin:/bin", **GIT_ID},
    )
    assert not check(task, ws, exit_code=0)[0]


FAKE_HEARTH = """#!/bin/sh
# Stands in for `hearth bench run`: records what it was asked and writes the result file.
while [ $# -gt 0 ]; do
  case $1 in
    --tasks) tasks=$2 ;; --only) only=$2 ;; --agent) agent=$2 ;; --out) out=$2 ;;
  esac
  shift
done
echo "$agent $only $tasks" >> "$CALLS"
echo "$agent ${HEARTH_TOOL_MODE:-default} ${HEARTH_MODEL_PROFILE:-default} $out" >> "$CALLS.modes"
mkdir -p "$out" && echo '{}' > "$out/results-$agent.json"
echo "PASS $only"
"""


def _measure(suite: str, end: str, out: Path, fake: Path, *agents: str) -> str:
    done = subprocess.run(
        ["bash", str(BENCH / "measure.sh"), suite, end, str(out), *agents],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HEARTH": str(fake), "CALLS": str(out / "calls.txt")},
        check=True,
    )
    return done.stdout


def test_measure_interleaves_the_suite_and_skips_what_is_done(tmp_path: Path) -> None:
    fake = tmp_path / "hearth"
    fake.write_text(FAKE_HEARTH)
    fake.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    first = _measure(str(BENCH / "heldout3"), "tomorrow", out, fake, "aider", "hearth")
    calls = (out / "calls.txt").read_text().splitlines()
    steps, exercises = sorted(t.name for t in TASKS), sorted(t.name for t in EXERCISES)
    order = [n for pair in zip(steps, exercises, strict=False) for n in pair] + exercises[len(steps) :]
    suite = BENCH / "heldout3"
    expected = []
    for name in order:
        folder = suite if name in steps else suite / "exercises"
        expected += [f"aider {name} {folder}", f"hearth {name} {folder}"]
    assert calls == expected
    assert "PASS k11_fix_duration" in first and "all tasks done" in first
    again = _measure(str(BENCH / "heldout3"), "tomorrow", out, fake, "aider", "hearth")
    assert (out / "calls.txt").read_text().splitlines() == expected, "a second run redoes done tasks"
    assert "all tasks done" in again


def test_measure_runs_hearth_in_a_tool_mode_asked_for_by_name_into_its_own_folder(tmp_path: Path) -> None:
    fake = tmp_path / "hearth"
    fake.write_text(FAKE_HEARTH)
    fake.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    _measure(str(BENCH / "heldout3"), "tomorrow", out, fake, "hearth", "hearth:text")
    modes = (out / "calls.txt.modes").read_text().splitlines()
    assert modes[:2] == [
        f"hearth default default {out}/hearth/{modes[0].split('/')[-1]}",
        f"hearth text small {out}/hearth:text/{modes[0].split('/')[-1]}",
    ]
    assert (out / "hearth:text" / "k11_fix_duration" / "results-hearth.json").exists()
    _measure(str(BENCH / "heldout3"), "tomorrow", out, fake, "hearth", "hearth:text")
    assert len((out / "calls.txt.modes").read_text().splitlines()) == len(modes), "done tasks were redone"


def test_measure_stops_when_no_task_fits_before_the_end(tmp_path: Path) -> None:
    fake = tmp_path / "hearth"
    fake.write_text(FAKE_HEARTH)
    fake.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    said = _measure(str(BENCH / "heldout2"), "yesterday", out, fake, "hearth")
    assert "stop: no time for hearth on k01_fix_conversion" in said
    assert not (out / "calls.txt").exists()


def test_summarise_merges_a_heldout3_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for name, passed in (("k11_fix_duration", True), ("ex_fib", False)):
        report = BenchReport(
            "hearth", [TrialResult(name, 1, "hearth", passed, 0, 42.0, server_prefill_tokens=900)]
        )
        report.write(out / "hearth" / name)
    done = subprocess.run(
        [sys.executable, str(BENCH / "summarise.py"), str(out), str(tmp_path / "heldout3-1.5b")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "| k11_fix_duration | pass, 0, 900, 42 |" in done.stdout
    assert "| ex_fib | fail, 0, 900, 42 |" in done.stdout
    assert "hearth: 1/2 passed" in done.stdout
    merged = load_report(tmp_path / "heldout3-1.5b-hearth.json")
    assert sorted(r.task for r in merged.results) == ["ex_fib", "k11_fix_duration"]
