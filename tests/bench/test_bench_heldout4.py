"""The fourth held-out suite (bench/heldout4: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout4` makes into bench/heldout4/exercises): every check fails on
the untouched task and passes with its reference solution. These tasks are only for measuring;
no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys

from bench.suite_checks import (
    BENCH,
    find_task,
    git,
    solve,
    workspace_tests_pass,
)
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout4")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


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
    assert workspace_tests_pass(ws, "test_batching.py"), (
        "the special-cased fix should pass the workspace tests"
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_bug_fix() -> None:
    task = _task("k21")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_batching.py").write_text(
        (ws / "test_batching.py").read_text().replace("[5]]", "[5]] or True")
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_unique_option_without_a_test_fails() -> None:
    task = _task("k22")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_sortlines.py").write_text((task.folder / "template" / "test_sortlines.py").read_text())
    assert "--unique" in (ws / "sortlines.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_rename_that_misses_a_file_fails() -> None:
    task = _task("k23")
    ws = prepare(task)
    tests = (ws / "test_fetcher.py").read_text()
    solve(task, ws)
    (ws / "test_fetcher.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "MAX_RETRIES is still used" in output


def test_a_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k23")
    ws = prepare(task)
    solve(task, ws)
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
    solve(task, ws)
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
    git(ws, "commit", "-qam", "Raise timeout to 30 seconds")
    git(ws, "branch", "raise-timeout")
    assert not check(task, ws, exit_code=0)[0]


def test_a_branch_with_an_uncommitted_change_fails() -> None:
    task = _task("k26")
    ws = prepare(task)
    git(ws, "checkout", "-q", "-b", "raise-timeout")
    subprocess.run(["sed", "-i", "s/^TIMEOUT = 5$/TIMEOUT = 30/", "client.py"], cwd=ws, check=True)
    git(ws, "commit", "-q", "--allow-empty", "-m", "Raise timeout to 30 seconds")
    assert not check(task, ws, exit_code=0)[0]


def test_a_helper_that_main_does_not_use_fails() -> None:
    task = _task("k27")
    ws = prepare(task)
    template = (ws / "report.py").read_text()
    solve(task, ws)
    solved = (ws / "report.py").read_text()
    helper = solved[solved.index("def print_section") : solved.index("def main")]
    (ws / "report.py").write_text(template.replace("def main", helper + "def main"))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError: []" in output, "main() should be caught printing without print_section"
