"""The sixth held-out suite (bench/heldout6: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout6` makes into bench/heldout6/exercises): every check fails on
the untouched task and passes with its reference solution. These tasks are only for measuring;
no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.suite_checks import (
    BENCH,
    find_task,
    git,
    solve,
    workspace_tests_pass,
)
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout6")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def _run(ws: Path, *args: str) -> str:
    return subprocess.run([sys.executable, *args], cwd=ws, capture_output=True, text=True).stdout


def test_the_wrap_fix_is_judged_beyond_the_workspace_tests() -> None:
    """A fix that special-cases the tests' inputs passes them but not the check's own inputs."""
    task = _task("k41")
    ws = prepare(task)
    source = (ws / "wrap.py").read_text()
    (ws / "wrap.py").write_text(
        source.replace(
            "def wrap(text, width):\n",
            "def wrap(text, width):\n"
            "    if (text, width) == ('the quick brown fox', 9):\n"
            "        return ['the quick', 'brown fox']\n"
            "    if (text, width) == ('a b c', 3):\n"
            "        return ['a b', 'c']\n",
        ).replace("    return len(wrap(text, width))", "    return {'one two three': 2}[text]")
    )
    assert workspace_tests_pass(ws, "test_wrap.py"), "the special-cased fix should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_wrap_fix() -> None:
    task = _task("k41")
    ws = prepare(task)
    solve(task, ws)
    tests = ws / "test_wrap.py"
    tests.write_text(tests.read_text().replace("== 2\n", "== 2 or True\n"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_separator_option_without_a_test_fails() -> None:
    task = _task("k42")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_joinlines.py").write_text((task.folder / "template" / "test_joinlines.py").read_text())
    assert "--sep" in (ws / "joinlines.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_separator_that_cannot_be_empty_fails() -> None:
    """`args.sep or ", "` gives the prompt's example right but turns an empty separator into the default."""
    task = _task("k42")
    ws = prepare(task)
    solve(task, ws)
    source = (ws / "joinlines.py").read_text()
    (ws / "joinlines.py").write_text(
        source.replace("join_lines(f, args.sep)", 'join_lines(f, args.sep or ", ")')
    )
    assert _run(ws, "joinlines.py", "--sep", " | ", "colours.txt") == "red | green | blue\n"
    assert not check(task, ws, exit_code=0)[0]


def test_a_class_rename_that_misses_the_tests_fails() -> None:
    task = _task("k43")
    ws = prepare(task)
    tests = (ws / "test_summary.py").read_text()
    solve(task, ws)
    (ws / "test_summary.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "TempReading is still used" in output


def test_a_class_rename_that_keeps_an_alias_fails() -> None:
    task = _task("k43")
    ws = prepare(task)
    solve(task, ws)
    with (ws / "sensors.py").open("a") as f:
        f.write("globals()['Temp' + 'Reading'] = Measurement\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_class_rename_by_subclass_fails() -> None:
    """A new class name over the old class still shows the old name in its repr."""
    task = _task("k43")
    ws = prepare(task)
    solve(task, ws)
    sensors = ws / "sensors.py"
    sensors.write_text(
        sensors.read_text()
        .replace("class Measurement:", "class _Old:")
        .replace('return f"Measurement(', "return f\"{'Temp' + 'Reading'}(")
        + "\n\nclass Measurement(_Old):\n    pass\n"
    )
    assert _run(ws, "summary.py").startswith("attic     26.2 C")
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_an_agenda_that_only_fits_the_example_fails() -> None:
    task = _task("k44")
    ws = prepare(task)
    (ws / "agenda.py").write_text(
        "print('2026-03-02 09:30-09:45 Standup')\nprint('2026-03-02 12:00-12:50 Lunch talk')\n"
        "print('2026-03-02 16:15-17:15 Review')\nprint('2026-03-03 14:00-14:45 Planning')\n"
        "print('total: 170 minutes')\n"
    )
    assert not check(task, ws, exit_code=0)[0]


def test_an_agenda_whose_end_times_do_not_carry_the_minutes_fails() -> None:
    """Adding whole hours and left-over minutes separately fits meetings.json but not 10:50 plus 70."""
    task = _task("k44")
    ws = prepare(task)
    solve(task, ws)
    source = (ws / "agenda.py").read_text()
    naive = 'f"{hours + minutes // 60:02d}:{mins + minutes % 60:02d}"'
    (ws / "agenda.py").write_text(source.replace('f"{total // 60:02d}:{total % 60:02d}"', naive))
    assert naive in (ws / "agenda.py").read_text()
    assert _run(ws, "agenda.py", "meetings.json").endswith(
        "16:15-17:15 Review\n2026-03-03 14:00-14:45 Planning\ntotal: 170 minutes\n"
    )
    assert not check(task, ws, exit_code=0)[0]


def test_an_env_file_that_drops_the_comment_fails() -> None:
    task = _task("k45")
    ws = prepare(task)
    solve(task, ws)
    env = ws / "app.env"
    env.write_text(env.read_text().replace("# Mail\n", ""))
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "AssertionError" in output


def test_an_env_file_with_the_log_level_at_the_end_fails() -> None:
    task = _task("k45")
    ws = prepare(task)
    solve(task, ws)
    env = ws / "app.env"
    env.write_text(env.read_text().replace("LOG_LEVEL=info\n", "") + "LOG_LEVEL=info\n")
    assert not check(task, ws, exit_code=0)[0]


def test_an_env_file_with_trailing_blank_lines_passes() -> None:
    task = _task("k45")
    ws = prepare(task)
    solve(task, ws)
    env = ws / "app.env"
    env.write_text(env.read_text() + "\n\n")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_dropping_the_commit_instead_of_reverting_it_fails() -> None:
    task = _task("k46")
    ws = prepare(task)
    git(ws, "rebase", "-q", "--onto", "HEAD~2", "HEAD~1")
    git(ws, "commit", "-q", "--allow-empty", "-m", "Go back to blue")
    assert "blue" in _run(ws, "theme.py")
    assert not check(task, ws, exit_code=0)[0]


def test_a_revert_with_the_default_message_fails() -> None:
    task = _task("k46")
    ws = prepare(task)
    git(ws, "revert", "--no-edit", "HEAD~1")
    assert not check(task, ws, exit_code=0)[0]


def test_a_revert_of_the_wrong_commit_fails() -> None:
    task = _task("k46")
    ws = prepare(task)
    git(ws, "revert", "--no-edit", "HEAD")
    git(ws, "commit", "-q", "--amend", "-m", "Go back to blue")
    assert not check(task, ws, exit_code=0)[0]


def test_a_revert_made_by_hand_passes() -> None:
    task = _task("k46")
    ws = prepare(task)
    theme = ws / "theme.py"
    theme.write_text(theme.read_text().replace('"red"', '"blue"'))
    git(ws, "commit", "-qam", "Go back to blue")
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_read_records_that_the_loaders_do_not_use_fails() -> None:
    task = _task("k47")
    ws = prepare(task)
    template = (ws / "accounts.py").read_text()
    solve(task, ws)
    solved = (ws / "accounts.py").read_text()
    helper = solved[solved.index("def read_records") : solved.index("def load_users")]
    (ws / "accounts.py").write_text(template.replace("def load_users", helper + "def load_users"))
    assert not check(task, ws, exit_code=0)[0]


def test_a_read_records_that_keeps_the_spaces_fails() -> None:
    task = _task("k47")
    ws = prepare(task)
    solve(task, ws)
    source = (ws / "accounts.py").read_text()
    (ws / "accounts.py").write_text(
        source.replace('[field.strip() for field in line.split(":")]', 'line.split(":")')
    )
    assert 'line.split(":"))' in (ws / "accounts.py").read_text()
    assert not check(task, ws, exit_code=0)[0]
