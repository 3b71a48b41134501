"""The fifth held-out suite (bench/heldout5: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout5` makes into bench/heldout5/exercises): every check fails on
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

TASKS = load_tasks(BENCH / "heldout5")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


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
    assert workspace_tests_pass(ws, "test_ranges.py"), "the special-cased fix should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_range_fix() -> None:
    task = _task("k31")
    ws = prepare(task)
    solve(task, ws)
    tests = ws / "test_ranges.py"
    tests.write_text(tests.read_text().replace("== 5\n", "== 5 or True\n"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_precision_option_without_a_test_fails() -> None:
    task = _task("k32")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_average.py").write_text((task.folder / "template" / "test_average.py").read_text())
    assert "--precision" in (ws / "average.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_precision_that_only_fits_the_example_fails() -> None:
    task = _task("k32")
    ws = prepare(task)
    solve(task, ws)
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
    solve(task, ws)
    (ws / "test_listing.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "get_full_name is still used" in output


def test_a_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k33")
    ws = prepare(task)
    solve(task, ws)
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
    solve(task, ws)
    source = (ws / "restock.py").read_text()
    # Sorting by the amount alone keeps file order on ties: right for stock.csv, wrong for others.
    (ws / "restock.py").write_text(source.replace("sorted(orders)", "sorted(orders, key=lambda o: o[0])"))
    out = subprocess.run([sys.executable, "restock.py", "stock.csv"], cwd=ws, capture_output=True, text=True)
    assert out.stdout == "bolts: order 60\nscrews: order 45\nwashers: order 45\ntotal: 150\n"
    assert not check(task, ws, exit_code=0)[0]


def test_a_backup_config_that_drops_a_line_fails() -> None:
    task = _task("k35")
    ws = prepare(task)
    solve(task, ws)
    config = ws / "backup.yml"
    config.write_text(config.read_text().replace("# Nightly backup of the office server.\n", ""))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_a_quoted_address_in_the_backup_config_passes() -> None:
    task = _task("k35")
    ws = prepare(task)
    solve(task, ws)
    config = ws / "backup.yml"
    config.write_text(config.read_text().replace("backup@example.com", '"backup@example.com"') + "\n")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_release_without_its_tag_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    (ws / "VERSION").write_text("2.1.0\n")
    git(ws, "commit", "-qam", "Release 2.1.0")
    assert not check(task, ws, exit_code=0)[0]


def test_a_tag_on_the_old_commit_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    git(ws, "tag", "v2.1.0")
    (ws / "VERSION").write_text("2.1.0\n")
    git(ws, "commit", "-qam", "Release 2.1.0")
    assert not check(task, ws, exit_code=0)[0]


def test_a_release_that_leaves_the_change_uncommitted_fails() -> None:
    task = _task("k36")
    ws = prepare(task)
    git(ws, "commit", "-q", "--allow-empty", "-m", "Release 2.1.0")
    git(ws, "tag", "v2.1.0")
    (ws / "VERSION").write_text("2.1.0\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_check_name_that_the_others_do_not_use_fails() -> None:
    task = _task("k37")
    ws = prepare(task)
    template = (ws / "signup.py").read_text()
    solve(task, ws)
    solved = (ws / "signup.py").read_text()
    helper = solved[solved.index("def check_name") : solved.index("def check_username")]
    (ws / "signup.py").write_text(template.replace("def check_username", helper + "def check_username"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_check_name_that_changes_a_message_fails() -> None:
    task = _task("k37")
    ws = prepare(task)
    solve(task, ws)
    source = (ws / "signup.py").read_text()
    (ws / "signup.py").write_text(source.replace("{field} may not contain", "{field} cannot contain"))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output
