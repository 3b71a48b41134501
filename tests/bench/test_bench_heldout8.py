"""The eighth held-out suite (bench/heldout8: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout8` makes into bench/heldout8/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.suite_checks import BENCH, find_task, git, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout8")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def _run(ws: Path, *args: str) -> str:
    return subprocess.run([sys.executable, *args], cwd=ws, capture_output=True, text=True).stdout


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))


def _passes(task: BenchTask, ws: Path) -> None:
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def test_a_version_fix_that_only_fits_the_tests_fails() -> None:
    """Answering the tests' own versions from a table passes them but not the check's versions."""
    task = _task("k61")
    ws = prepare(task)
    answers = {"v2.0.1": (2, 0, 1), "1.2.10": (1, 2, 10), "1.2.9": (1, 2, 9)}
    answers.update({"1.9.0": (1, 9, 0), "1.10.0": (1, 10, 0), "1.2.3": (1, 2, 3)})
    with (ws / "versions.py").open("a") as f:
        f.write(f"\n\n_real = parse\nANSWERS = {answers!r}\n\n\n")
        f.write("def parse(version):\n    return ANSWERS.get(version, _real(version))\n")
    assert workspace_tests_pass(ws, "test_versions.py"), "the table should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_version_fix() -> None:
    task = _task("k61")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "test_versions.py", 'assert parse("v2.0.1") == (2, 0, 1)', 'assert parse("v2.0.1")')
    assert not check(task, ws, exit_code=0)[0]


def test_a_json_option_without_a_test_fails() -> None:
    task = _task("k62")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_wordstats.py").write_text((task.folder / "template" / "test_wordstats.py").read_text())
    assert "--json" in (ws / "wordstats.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_json_option_that_indents_fails() -> None:
    """Indented JSON is the same object but not the one line the prompt asks for."""
    task = _task("k62")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "wordstats.py", "print(json.dumps(counts))", "print(json.dumps(counts, indent=2))")
    assert not check(task, ws, exit_code=0)[0]


def test_a_json_option_with_a_short_form_too_passes() -> None:
    task = _task("k62")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "wordstats.py", 'add_argument("--json"', 'add_argument("-j", "--json"')
    _passes(task, ws)


def test_a_parameter_rename_that_misses_the_tests_fails() -> None:
    task = _task("k63")
    ws = prepare(task)
    tests = (ws / "test_billing.py").read_text()
    solve(task, ws)
    (ws / "test_billing.py").write_text(tests)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "tax_pct is still used" in output


def test_a_parameter_rename_that_keeps_the_old_name_working_fails() -> None:
    task = _task("k63")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "billing.py",
        "def invoice_total(lines, vat_rate=0):\n",
        "def invoice_total(lines, vat_rate=0, **old):\n    vat_rate = old.get('tax_' + 'pct', vat_rate)\n",
    )
    assert workspace_tests_pass(ws, "test_billing.py")
    assert not check(task, ws, exit_code=0)[0]


def test_an_overdue_list_that_only_fits_the_example_fails() -> None:
    task = _task("k64")
    ws = prepare(task)
    lines = [
        "Walden (lee): 15 days late",
        "Dune (mia): 14 days late",
        "Atonement (ola): 7 days late",
        "Kindred (mia): 7 days late",
        "Emma (tom): 1 day late",
        "5 books overdue",
    ]
    (ws / "overdue.py").write_text("".join(f"print({line!r})\n" for line in lines))
    assert not check(task, ws, exit_code=0)[0]


def test_an_overdue_list_that_counts_the_due_day_as_late_fails() -> None:
    task = _task("k64")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "overdue.py", "if days > 0:", "if days >= 0:")
    assert not check(task, ws, exit_code=0)[0]


def test_an_overdue_list_that_always_says_books_fails() -> None:
    task = _task("k64")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "overdue.py", "{'book' if len(late) == 1 else 'books'}", "books")
    assert _run(ws, "overdue.py", "loans.csv", "2026-03-15").endswith("5 books overdue\n")
    assert not check(task, ws, exit_code=0)[0]


def test_an_ssh_config_with_backup_after_the_catch_all_fails() -> None:
    """ssh takes the first value it finds, so a host after `Host *` loses to it."""
    task = _task("k65")
    ws = prepare(task)
    solve(task, ws)
    backup = "Host backup\n    HostName backup.example.com\n    User archive\n\n"
    _edit(ws / "ssh_config", backup, "")
    with (ws / "ssh_config").open("a") as f:
        f.write("\n" + backup)
    assert not check(task, ws, exit_code=0)[0]


def test_an_ssh_config_without_its_comment_fails() -> None:
    task = _task("k65")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "ssh_config", "# SSH hosts for the team's servers.\n", "")
    assert not check(task, ws, exit_code=0)[0]


def test_an_ssh_config_written_with_equals_and_lower_case_keys_passes() -> None:
    task = _task("k65")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "ssh_config", "    IdentityFile ~/.ssh/build_key\n", "identityfile=~/.ssh/build_key\n")
    _edit(ws / "ssh_config", "    Port 2222\n", "  port = 2222\n")
    _passes(task, ws)


def test_a_new_commit_instead_of_amending_fails() -> None:
    task = _task("k66")
    ws = prepare(task)
    git(ws, "add", "about.css")
    git(ws, "commit", "-qm", "Add about page")
    assert not check(task, ws, exit_code=0)[0]


def test_amending_with_the_notes_too_fails() -> None:
    task = _task("k66")
    ws = prepare(task)
    git(ws, "add", "about.css", "notes.txt")
    git(ws, "commit", "-q", "--amend", "--no-edit")
    assert not check(task, ws, exit_code=0)[0]


def test_redoing_the_commit_after_a_soft_reset_passes() -> None:
    task = _task("k66")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "add", "about.css")
    git(ws, "commit", "-qm", "Add about page")
    _passes(task, ws)


def test_a_clock_helper_that_the_functions_do_not_use_fails() -> None:
    task = _task("k67")
    ws = prepare(task)
    helper = (
        "def clock(seconds):\n    minutes, secs = divmod(seconds, 60)\n"
        "    hours, minutes = divmod(minutes, 60)\n    if hours:\n"
        '        return f"{hours}:{minutes:02d}:{secs:02d}"\n    return f"{minutes}:{secs:02d}"\n\n\n'
    )
    _edit(ws / "timer.py", "def show_laps", helper + "def show_laps")
    assert not check(task, ws, exit_code=0)[0]


def test_a_clock_helper_without_hours_fails() -> None:
    """Leaving the hours to show_total keeps timer.py's output but not clock(3725)."""
    task = _task("k67")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "timer.py", '    if hours:\n        return f"{hours}:{minutes:02d}:{secs:02d}"\n', "")
    _edit(ws / "timer.py", "    hours, minutes = divmod(minutes, 60)\n", "")
    _edit(
        ws / "timer.py",
        'print(f"total {clock(seconds)} over',
        'print(f"total {seconds // 3600}:{clock(seconds % 3600).zfill(5)} over',
    )
    assert _run(ws, "timer.py").endswith("total 1:03:52 over 4 laps\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_clock_helper_written_with_floor_division_passes() -> None:
    task = _task("k67")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "timer.py",
        "    minutes, secs = divmod(seconds, 60)\n    hours, minutes = divmod(minutes, 60)\n",
        "    hours, minutes, secs = seconds // 3600, seconds // 60 % 60, seconds % 60\n",
    )
    _passes(task, ws)
