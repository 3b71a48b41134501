"""The seventh held-out suite (bench/heldout7: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout7` makes into bench/heldout7/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.suite_checks import BENCH, find_task, git, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout7")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def _run(ws: Path, *args: str) -> str:
    return subprocess.run([sys.executable, *args], cwd=ws, capture_output=True, text=True).stdout


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))


def test_a_roman_fix_that_only_fits_the_tests_fails() -> None:
    """Answering the tests' own inputs from a table passes them but not the check's inputs."""
    task = _task("k51")
    ws = prepare(task)
    answers = {"III": 3, "mmxx": 2020, "XLIV": 44}
    answers.update({roman: n for n, roman in [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL")]})
    answers.update({"XCIX": 99, "CD": 400, "MDCLXVI": 1666, "MMMCMXCIX": 3999})
    with (ws / "roman.py").open("a") as f:
        f.write(f"\n\n_real = from_roman\nANSWERS = {answers!r}\n\n\n")
        f.write("def from_roman(text):\n    return ANSWERS.get(text, _real(text))\n")
    assert workspace_tests_pass(ws, "test_roman.py"), "the table should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_roman_fix() -> None:
    task = _task("k51")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "test_roman.py", 'assert from_roman("III") == 3', 'assert from_roman("III") in (3, -1)')
    assert not check(task, ws, exit_code=0)[0]


def test_an_ignore_case_option_without_a_test_fails() -> None:
    task = _task("k52")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_search.py").write_text((task.folder / "template" / "test_search.py").read_text())
    assert "--ignore-case" in (ws / "search.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_an_ignore_case_option_that_prints_lower_case_lines_fails() -> None:
    task = _task("k52")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "search.py",
        'found.append(f"{number}: {line.rstrip()}")',
        "found.append(f'{number}: {line.rstrip().lower()}')",
    )
    assert not check(task, ws, exit_code=0)[0]


def test_a_method_rename_that_misses_the_tests_fails() -> None:
    task = _task("k53")
    ws = prepare(task)
    tests = (ws / "test_playlist.py").read_text()
    solve(task, ws)
    (ws / "test_playlist.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "add_song is still used" in output


def test_a_method_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k53")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "playlist.py",
        "    def total_seconds",
        "    locals()['add_' + 'song'] = enqueue\n\n    def total_seconds",
    )
    assert _run(ws, "radio.py").endswith("Evening: 4 songs, 24:56\n")
    assert not check(task, ws, exit_code=0)[0]


def test_an_hours_report_that_only_fits_the_example_fails() -> None:
    task = _task("k54")
    ws = prepare(task)
    lines = ["ana: 15.5 h on 2 days", "ben: 11.5 h on 2 days", "cleo: 11.5 h on 2 days", "total: 38.5 h"]
    (ws / "hours.py").write_text("".join(f"print({line!r})\n" for line in lines))
    assert not check(task, ws, exit_code=0)[0]


def test_an_hours_report_that_always_says_days_fails() -> None:
    task = _task("k54")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "hours.py", "{'day' if days == 1 else 'days'}", "days")
    assert _run(ws, "hours.py", "timesheet.csv").startswith("ana: 15.5 h on 2 days\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_tox_ini_without_its_comment_fails() -> None:
    task = _task("k55")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "tox.ini", "# Test environments for the parser package.\n", "")
    assert not check(task, ws, exit_code=0)[0]


def test_a_tox_ini_with_py312_last_fails() -> None:
    task = _task("k55")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "tox.ini", "py311, py312, lint", "py311, lint, py312")
    assert not check(task, ws, exit_code=0)[0]


def test_a_tox_ini_with_a_multiline_envlist_passes() -> None:
    task = _task("k55")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "tox.ini",
        "envlist = py310, py311, py312, lint",
        "envlist =\n    py310\n    py311\n    py312\n    lint",
    )
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_merging_the_whole_branch_fails() -> None:
    task = _task("k56")
    ws = prepare(task)
    git(ws, "merge", "-q", "--no-edit", "-X", "ours", "experiments")
    assert not check(task, ws, exit_code=0)[0]


def test_picking_the_wrong_commit_fails() -> None:
    task = _task("k56")
    ws = prepare(task)
    git(ws, "cherry-pick", "experiments~2")
    assert not check(task, ws, exit_code=0)[0]


def test_the_fix_made_by_hand_with_the_same_message_passes() -> None:
    task = _task("k56")
    ws = prepare(task)
    _edit(
        ws / "price.py",
        "return int(sum(price for _, price in items) * 100) / 100",
        "return round(sum(price for _, price in items), 2)",
    )
    git(ws, "commit", "-qam", "Fix rounding in total")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_bar_helper_that_the_charts_do_not_use_fails() -> None:
    task = _task("k57")
    ws = prepare(task)
    helper = (
        'def bar(value, largest, width):\n    if largest == 0:\n        return ""\n'
        '    return "#" * round(value / largest * width)\n\n\n'
    )
    _edit(ws / "chart.py", "def show_visitors", helper + "def show_visitors")
    assert not check(task, ws, exit_code=0)[0]


def test_a_bar_helper_without_the_zero_case_fails() -> None:
    """Guarding against zero in the callers keeps chart.py's output but not bar(5, 0, 10)."""
    task = _task("k57")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "chart.py", '    if largest == 0:\n        return ""\n', "")
    _edit(ws / "chart.py", "{bar(count, largest, 20):<20}", "{bar(count, largest or 1, 20):<20}")
    assert _run(ws, "chart.py").startswith("Visitors\n  Mon ############         120\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_cherry_pick_that_records_its_origin_passes() -> None:
    """`git cherry-pick -x` adds a line to the body; the subject stays the same."""
    task = _task("k56")
    ws = prepare(task)
    git(ws, "cherry-pick", "-x", "experiments~1")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_bar_helper_with_a_default_width_passes() -> None:
    task = _task("k57")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "chart.py", "def bar(value, largest, width):", "def bar(value, largest, width=20):")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output
