"""The twenty-third held-out suite (bench/heldout23: ten everyday tasks of one ask each): each
check fails on the untouched workspace and passes after the reference solution, and what is
particular to a task's check is shown by near-misses that must fail and other honest solutions
that must pass. These tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.suite_checks import (
    BENCH,
    edit,
    fails,
    find_task,
    git,
    passes,
    solve,
    suite_tasks,
    untouched_and_solved,
)
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout23")
EVERY = suite_tasks("heldout23")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_suite_has_its_ten_tasks_and_no_exercises() -> None:
    assert [t.name for t in TASKS] == [
        "k189_average_empty",
        "k190_add_initials",
        "k191_config_port",
        "k192_category_totals",
        "k193_rename_circle_area",
        "k194_shout_option",
        "k195_commit_typo",
        "k196_missing_file",
        "k197_license_section",
        "k198_cache_settings",
    ]
    assert not (BENCH / "heldout23" / "exercises").exists()
    assert [t for _, t in EVERY] == TASKS
    for task in TASKS:
        assert (task.folder / "solution.sh").is_file() and (task.folder / "template").is_dir()


@pytest.mark.parametrize(("suite", "task"), EVERY, ids=[t.name for _, t in EVERY])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


AVERAGE = "    return sum(scores) / len(scores)\n"


def test_average_fixed_with_a_conditional_expression_passes_and_by_editing_the_test_fails() -> None:
    task = _task("k189")
    ws = prepare(task)
    edit(ws / "scores.py", AVERAGE, "    return sum(scores) / len(scores) if scores else 0.0\n")
    passes(task, ws)
    ws = prepare(task)
    edit(ws / "test_scores.py", "    assert average([]) == 0.0\n", "    assert True\n")
    fails(task, ws)


def test_average_of_nothing_as_the_integer_zero_fails() -> None:
    task = _task("k189")
    ws = prepare(task)
    edit(ws / "scores.py", AVERAGE, "    return sum(scores) / len(scores) if scores else 0\n")
    fails(task, ws)


def _initials(ws: Path, body: str) -> None:
    path = ws / "names.py"
    path.write_text(path.read_text() + "\n\ndef initials(name):\n" + body)


def test_initials_of_each_word_pass_and_ignoring_extra_spaces_matters() -> None:
    task = _task("k190")
    ws = prepare(task)
    _initials(ws, '    return "".join(f"{w[0].upper()}." for w in name.split())\n')
    passes(task, ws)
    ws = prepare(task)
    _initials(ws, '    return "".join(f"{w[:1].upper()}." for w in name.split(" "))\n')  # empty words: "."
    fails(task, ws)
    ws = prepare(task)
    _initials(ws, '    return "".join(w[0].upper() for w in name.split())\n')  # no full stops
    fails(task, ws)


def test_the_port_as_a_string_or_another_setting_lost_fails() -> None:
    task = _task("k191")
    ws = prepare(task)
    edit(ws / "config.json", '"port": 5000', '"port": "8080"')
    edit(ws / "config.json", '"debug": true', '"debug": false')
    fails(task, ws)
    ws = prepare(task)
    (ws / "config.json").write_text(
        '{"name": "inventory", "host": "127.0.0.1", "port": 8080, "debug": false}\n'
    )
    fails(task, ws)
    ws = prepare(task)
    (ws / "config.json").write_text(
        '{"name": "inventory", "host": "127.0.0.1", "port": 8080, "debug": false, "workers": 4,\n'
        ' "log_level": "info", "allowed_origins": ["http://localhost:3000"]}'
    )
    passes(task, ws)


def test_totals_unsorted_or_without_two_decimals_fail() -> None:
    task = _task("k192")
    ws = prepare(task)
    (ws / "totals.txt").write_text("rent: 900.00\nfood: 58.25\ntransport: 23.10\nbooks: 31.40\n")
    fails(task, ws)
    ws = prepare(task)
    (ws / "totals.txt").write_text("books: 31.4\nfood: 58.25\nrent: 900.0\ntransport: 23.1\n")
    fails(task, ws)
    ws = prepare(task)
    (ws / "totals.txt").write_text(
        "books: 31.40\nfood: 58.25\nrent: 900.00\ntransport: 23.10"
    )  # no last newline
    passes(task, ws)


def test_a_rename_left_in_report_or_kept_as_an_alias_only_fails() -> None:
    task = _task("k193")
    ws = prepare(task)
    edit(ws / "geometry.py", "def area_of_circle(", "def circle_area(")
    fails(task, ws)  # report.py still imports the old name
    ws = prepare(task)
    edit(ws / "geometry.py", "def area_of_circle(", "def circle_area(")
    (ws / "geometry.py").write_text((ws / "geometry.py").read_text() + "\n\narea_of_circle = circle_area\n")
    fails(task, ws)


def test_shout_that_breaks_times_or_only_upper_cases_the_name_fails() -> None:
    task = _task("k194")
    ws = prepare(task)
    edit(
        ws / "greet.py",
        "    args = parser.parse_args()\n",
        '    parser.add_argument("--shout", action="store_true")\n    args = parser.parse_args()\n',
    )
    edit(
        ws / "greet.py",
        '        print(f"Hello, {args.name}! Nice to see you.")\n',
        '        name = args.name.upper() if args.shout else args.name\n        print(f"Hello, {name}! Nice to see you.")\n',
    )
    fails(task, ws)


def test_a_commit_holding_app_py_too_or_another_message_fails() -> None:
    task = _task("k195")
    ws = prepare(task)
    edit(ws / "README.md", "recieve", "receive")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "Fix typo in README")
    fails(task, ws)
    ws = prepare(task)
    edit(ws / "README.md", "recieve", "receive")
    git(ws, "add", "README.md")
    git(ws, "commit", "-qm", "Fix typo in README.")
    fails(task, ws)


def test_a_missing_file_said_on_stderr_passes_and_exit_status_0_fails() -> None:
    task = _task("k196")
    ws = prepare(task)
    edit(
        ws / "count.py",
        "    with open(name) as f:\n        text = f.read()\n",
        "    import os\n\n    if not os.path.exists(name):\n        sys.exit(f'error: no such file: {name}')\n"
        "    with open(name) as f:\n        text = f.read()\n",
    )
    passes(task, ws)
    ws = prepare(task)
    edit(
        ws / "count.py",
        "    with open(name) as f:\n        text = f.read()\n",
        "    try:\n        text = open(name).read()\n    except OSError:\n        print(f'error: no such file: {name}')\n        return\n",
    )
    fails(task, ws)


def test_a_license_section_not_last_or_the_readme_rewritten_fails() -> None:
    task = _task("k197")
    ws = prepare(task)
    edit(ws / "README.md", "## Install\n", "## License\n\nMIT License.\n\n## Install\n")
    fails(task, ws)
    ws = prepare(task)
    (ws / "README.md").write_text("# tidyphotos\n\n## License\n\nMIT License\n")
    fails(task, ws)
    ws = prepare(task)
    with (ws / "README.md").open("a") as fh:
        fh.write("\n# License\n\nReleased under the MIT License.\n")
    passes(task, ws)


def test_cache_settings_in_the_wrong_section_or_the_email_timeout_changed_fail() -> None:
    task = _task("k198")
    ws = prepare(task)
    edit(ws / "settings.ini", "timeout = 300", "timeout = 600")
    with (ws / "settings.ini").open("a") as fh:
        fh.write("max_size = 100\n")  # at the end: the email section
    fails(task, ws)
    ws = prepare(task)
    (ws / "settings.ini").write_text(
        (ws / "settings.ini").read_text().replace("timeout = ", "timeout = 600 #")
    )
    fails(task, ws)
    ws = prepare(task)
    edit(
        ws / "settings.ini",
        "backend = redis\ntimeout = 300\n",
        "backend = redis\nmax_size = 100\ntimeout = 600\n",
    )
    passes(task, ws)


def test_the_reference_solutions_touch_only_what_their_task_names() -> None:
    task = _task("k195")
    ws = prepare(task)
    solve(task, ws)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=ws, capture_output=True, text=True).stdout
    assert status == " M app.py\n"
