"""The ninth held-out suite (bench/heldout9: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout9` makes into bench/heldout9/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.suite_checks import BENCH, find_task, git, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, check, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout9")


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


def test_a_bill_split_that_only_fits_the_tests_fails() -> None:
    """Answering the tests' own bills from a table passes them but not the check's bills."""
    task = _task("k71")
    ws = prepare(task)
    answers = {(900, 3): [300] * 3, (1000, 3): [334, 333, 333], (1001, 4): [251, 250, 250, 250]}
    answers[(2599, 7)] = [372, 372, 371, 371, 371, 371, 371]
    with (ws / "splitbill.py").open("a") as f:
        f.write(f"\n\n_real = split\nANSWERS = {answers!r}\n\n\n")
        f.write("def split(total_cents, people):\n")
        f.write("    return ANSWERS.get((total_cents, people)) or _real(total_cents, people)\n")
    assert workspace_tests_pass(ws, "test_splitbill.py"), "the table should pass the workspace tests"
    assert not check(task, ws, exit_code=0)[0]


def test_a_changed_test_file_fails_the_bill_split() -> None:
    task = _task("k71")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "test_splitbill.py", "[300, 300, 300]", "[300, 300, 300] or True")
    assert not check(task, ws, exit_code=0)[0]


def test_a_since_option_without_a_test_fails() -> None:
    task = _task("k72")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_journal.py").write_text((task.folder / "template" / "test_journal.py").read_text())
    assert "--since" in (ws / "journal.py").read_text()
    assert not check(task, ws, exit_code=0)[0], "the option works but no test covers it"


def test_a_since_option_that_leaves_out_the_day_itself_fails() -> None:
    task = _task("k72")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "journal.py", "if day >= args.since", "if day > args.since")
    assert not check(task, ws, exit_code=0)[0]


def test_a_since_option_with_a_short_form_too_passes() -> None:
    task = _task("k72")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "journal.py", 'add_argument("--since"', 'add_argument("-s", "--since"')
    _passes(task, ws)


def test_a_field_rename_that_misses_the_report_fails() -> None:
    task = _task("k73")
    ws = prepare(task)
    report = (ws / "stockreport.py").read_text()
    solve(task, ws)
    (ws / "stockreport.py").write_text(report)
    passed, output = check(task, ws, exit_code=0)
    assert not passed
    assert "qty is still used" in output


def test_a_field_rename_that_keeps_the_old_name_as_a_property_fails() -> None:
    task = _task("k73")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "inventory.py",
        "    def value(self):",
        "    @property\n    def q_t_y(self):\n        return self.quantity\n\n    def value(self):",
    )
    _edit(ws / "inventory.py", "q_t_y", "q" + "ty")
    assert workspace_tests_pass(ws, "test_inventory.py")
    assert not check(task, ws, exit_code=0)[0]


def test_a_league_table_that_only_fits_the_example_fails() -> None:
    task = _task("k74")
    ws = prepare(task)
    solve(task, ws)
    table = _run(ws, "table.py", "matches.json")
    (ws / "table.py").write_text(f"print({table.rstrip()!r})\n")
    assert not check(task, ws, exit_code=0)[0]


def test_a_league_table_that_counts_a_draw_as_nothing_fails() -> None:
    task = _task("k74")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "table.py", "{3 * won + drawn} points", "{3 * won} points")
    assert not check(task, ws, exit_code=0)[0]


def test_a_league_table_that_says_1_point_passes() -> None:
    task = _task("k74")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "table.py",
        "{3 * won + drawn} points",
        "{3 * won + drawn} {'point' if 3 * won + drawn == 1 else 'points'}",
    )
    (ws / "draw.json").write_text('[{"home": "A", "away": "B", "score": "1-1"}]')
    assert _run(ws, "table.py", "draw.json").startswith("A: 1 point (0 won")
    _passes(task, ws)


def test_a_crontab_written_with_day_names_and_padded_hours_passes() -> None:
    task = _task("k75")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "crontab.txt", "45 3 * * *", "45 03 * * *")
    _edit(ws / "crontab.txt", "0 7 * * 1-5", "00 07 * * MON-FRI")
    _edit(ws / "crontab.txt", "0 0 * * 0 /opt", "@weekly /opt")
    _passes(task, ws)


def test_a_crontab_with_the_cleanup_comment_left_fails() -> None:
    task = _task("k75")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "crontab.txt", "# Pull stock", "# Clear the upload folder\n# Pull stock")
    assert not check(task, ws, exit_code=0)[0]


def test_a_crontab_with_the_report_on_every_day_fails() -> None:
    task = _task("k75")
    ws = prepare(task)
    solve(task, ws)
    _edit(ws / "crontab.txt", "0 7 * * 1-5", "0 7 * * 1-7")
    assert not check(task, ws, exit_code=0)[0]


def test_removing_the_env_file_itself_fails() -> None:
    task = _task("k76")
    ws = prepare(task)
    git(ws, "rm", "-q", ".env")
    (ws / ".gitignore").write_text("__pycache__/\n.env\n")
    git(ws, "add", ".gitignore")
    git(ws, "commit", "-qm", "Stop tracking .env")
    assert not check(task, ws, exit_code=0)[0]


def test_untracking_without_ignoring_fails() -> None:
    task = _task("k76")
    ws = prepare(task)
    git(ws, "rm", "-q", "--cached", ".env")
    git(ws, "commit", "-qm", "Stop tracking .env")
    assert not check(task, ws, exit_code=0)[0]


def test_folding_the_untracking_into_the_last_commit_fails() -> None:
    task = _task("k76")
    ws = prepare(task)
    git(ws, "rm", "-q", "--cached", ".env")
    (ws / ".gitignore").write_text("__pycache__/\n.env\n")
    git(ws, "add", ".gitignore")
    git(ws, "commit", "-q", "--amend", "-m", "Stop tracking .env")
    assert not check(task, ws, exit_code=0)[0]


def test_ignoring_env_with_a_pattern_passes() -> None:
    task = _task("k76")
    ws = prepare(task)
    git(ws, "rm", "-q", "--cached", ".env")
    (ws / ".gitignore").write_text("__pycache__/\n\n# local settings\n*.env\n")
    git(ws, "add", ".gitignore")
    git(ws, "commit", "-qm", "Stop tracking .env")
    _passes(task, ws)


def test_a_phone_helper_that_the_functions_do_not_use_fails() -> None:
    task = _task("k77")
    ws = prepare(task)
    solved = prepare(task)
    solve(task, solved)
    text = (solved / "contacts.py").read_text()
    helper = text[text.index("def normalise_phone") : text.index("def add_contact")]
    _edit(ws / "contacts.py", "def add_contact", helper + "def add_contact")
    assert not check(task, ws, exit_code=0)[0]


def test_a_phone_helper_that_lost_the_error_fails() -> None:
    task = _task("k77")
    ws = prepare(task)
    solve(task, ws)
    _edit(
        ws / "contacts.py", '        raise ValueError(f"not a phone number: {number!r}")\n', "        pass\n"
    )
    assert not check(task, ws, exit_code=0)[0]
