"""The tenth held-out suite (bench/heldout10: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout10` makes into bench/heldout10/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import json
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout10")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_an_isbn_fix_that_only_fits_the_tests_fails() -> None:
    """Listing the tests' own numbers as valid passes them but not the check's other numbers."""
    task = _task("k81")
    ws = prepare(task)
    with (ws / "isbn.py").open("a") as f:
        f.write('\n\nKNOWN = {"0306406152", "080442957X", "9971502100"}\n_real = is_valid\n\n\n')
        f.write("def is_valid(text):\n    return clean(text) in KNOWN\n")
    assert workspace_tests_pass(ws, "test_isbn.py"), "the list should pass the workspace tests"
    fails(task, ws)


def test_a_changed_test_file_fails_the_isbn_fix() -> None:
    task = _task("k81")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "test_isbn.py", 'assert clean("0-306-40615-2")', 'assert True or clean("0-306-40615-2")')
    fails(task, ws)


def test_a_min_length_option_without_a_test_fails() -> None:
    task = _task("k82")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_vocab.py").write_text((task.folder / "template" / "test_vocab.py").read_text())
    fails(task, ws)


def test_a_min_length_that_drops_words_of_exactly_n_letters_fails() -> None:
    task = _task("k82")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "vocab.py", "len(w) >= args.min_length", "len(w) > args.min_length")
    fails(task, ws)


def test_a_min_length_that_the_count_ignores_fails() -> None:
    task = _task("k82")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "vocab.py", "print(len(found))", "print(len(set(words(open(args.file).read()))))")
    fails(task, ws)


def test_a_min_length_filtered_while_printing_passes() -> None:
    task = _task("k82")
    ws = prepare(task)
    solve(task, ws)
    (ws / "vocab.py").write_text((task.folder / "template" / "vocab.py").read_text())
    edit(
        ws / "vocab.py",
        "        found = sorted(set(words(f.read())))\n",
        "        found = sorted(set(words(f.read())))\n"
        "    found = [word for word in found if not len(word) < args.min_length]\n",
    )
    passes(task, ws)


def test_a_rename_that_keeps_the_old_name_as_an_alias_fails() -> None:
    task = _task("k83")
    ws = prepare(task)
    solve(task, ws)
    with (ws / "health.py").open("a") as f:
        f.write("\n\ncalc_bmi = body_mass_index\n")
    fails(task, ws)


def test_a_rename_that_leaves_the_test_names_fails() -> None:
    task = _task("k83")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "test_health.py", "def test_body_mass_index", "def test_bmi")
    fails(task, ws)


def test_a_rename_that_misses_checkup_fails() -> None:
    task = _task("k83")
    ws = prepare(task)
    solve(task, ws)
    (ws / "checkup.py").write_text((task.folder / "template" / "checkup.py").read_text())
    fails(task, ws)


MONTHLY = """import csv
import sys

months = {}
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        count, total = months.get(row["date"][:7], (0, 0.0))
        months[row["date"][:7]] = (count + 1, total + float(row["amount"]))
if not months:
    print("no expenses")
else:
    for month in sorted(months):
        count, total = months[month]
        noun = "expense" if count == 1 else "expenses"
        print(f"{month}: {total:.2f} ({count} {noun})")
    print("most spent in", max(sorted(months), key=lambda m: round(months[m][1], 2)))
"""


def test_a_spending_report_that_says_1_expense_passes() -> None:
    """max() over the sorted months keeps the first of a tie, as the task asks."""
    task = _task("k84")
    ws = prepare(task)
    (ws / "monthly.py").write_text(MONTHLY)
    passes(task, ws)


def test_a_spending_report_that_names_the_latest_month_on_a_tie_fails() -> None:
    task = _task("k84")
    ws = prepare(task)
    (ws / "monthly.py").write_text(MONTHLY.replace("max(sorted(months)", "max(sorted(months, reverse=True)"))
    fails(task, ws)


def test_a_spending_report_that_only_fits_the_example_fails() -> None:
    task = _task("k84")
    ws = prepare(task)
    (ws / "monthly.py").write_text(
        "print('2026-01: 736.70 (3 expenses)\\n2026-02: 759.35 (3 expenses)\\n"
        "2026-03: 12.05 (1 expenses)\\nmost spent in 2026-02')\n"
    )
    fails(task, ws)


def _package(ws: Path) -> dict:
    return json.loads((ws / "package.json").read_text())


def test_a_package_json_rewritten_with_other_spacing_and_lint_first_passes() -> None:
    task = _task("k85")
    ws = prepare(task)
    solve(task, ws)
    data = _package(ws)
    data["scripts"] = {"lint": data["scripts"].pop("lint"), **data["scripts"]}
    (ws / "package.json").write_text(json.dumps(data, indent=4))
    passes(task, ws)


def test_a_package_json_that_keeps_moment_fails() -> None:
    task = _task("k85")
    ws = prepare(task)
    solve(task, ws)
    data = _package(ws)
    data["dependencies"]["moment"] = "^2.29.4"
    (ws / "package.json").write_text(json.dumps(data, indent=2))
    fails(task, ws)


def test_a_package_json_with_eslint_in_the_dependencies_fails() -> None:
    task = _task("k85")
    ws = prepare(task)
    solve(task, ws)
    data = _package(ws)
    data["dependencies"]["eslint"] = data["devDependencies"].pop("eslint")
    (ws / "package.json").write_text(json.dumps(data, indent=2))
    fails(task, ws)


def test_a_rename_by_plain_mv_and_add_passes() -> None:
    """git finds the rename itself when the content is unchanged; git mv is not required."""
    task = _task("k86")
    ws = prepare(task)
    (ws / "notes.txt").rename(ws / "NOTES.md")
    edit(ws / "build.py", '"notes.txt"', '"NOTES.md"')
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "Rename notes to NOTES.md")
    passes(task, ws)


def test_a_rename_in_two_commits_fails() -> None:
    task = _task("k86")
    ws = prepare(task)
    git(ws, "mv", "notes.txt", "NOTES.md")
    git(ws, "commit", "-qm", "Rename notes to NOTES.md")
    edit(ws / "build.py", '"notes.txt"', '"NOTES.md"')
    git(ws, "commit", "-qam", "Rename notes to NOTES.md")
    fails(task, ws)


def test_a_rename_that_leaves_build_py_uncommitted_fails() -> None:
    task = _task("k86")
    ws = prepare(task)
    git(ws, "mv", "notes.txt", "NOTES.md")
    git(ws, "commit", "-qm", "Rename notes to NOTES.md")
    edit(ws / "build.py", '"notes.txt"', '"NOTES.md"')
    fails(task, ws)


def test_a_rename_that_changes_the_notes_fails() -> None:
    task = _task("k86")
    ws = prepare(task)
    git(ws, "mv", "notes.txt", "NOTES.md")
    with (ws / "NOTES.md").open("a") as f:
        f.write("Salad: lettuce.\n")
    edit(ws / "build.py", '"notes.txt"', '"NOTES.md"')
    git(ws, "commit", "-qam", "Rename notes to NOTES.md")
    fails(task, ws)


def test_a_row_helper_that_the_functions_do_not_use_fails() -> None:
    task = _task("k87")
    ws = prepare(task)
    solve(task, ws)
    (ws / "till.py").write_text(
        (task.folder / "template" / "till.py")
        .read_text()
        .replace(
            "def receipt(items):",
            "def row(name, cents):\n"
            '    label = name if len(name) <= WIDTH else name[: WIDTH - 1] + "~"\n'
            '    return label.ljust(WIDTH) + f"{cents // 100}.{cents % 100:02d}".rjust(8)\n\n\n'
            "def receipt(items):",
        )
    )
    fails(task, ws)


def test_a_row_helper_that_cuts_long_names_differently_fails() -> None:
    task = _task("k87")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "till.py", 'name[: WIDTH - 1] + "~"', "name[:WIDTH]")
    fails(task, ws)


def test_a_row_helper_written_another_way_passes() -> None:
    task = _task("k87")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "till.py",
        '    amount = f"{cents // 100}.{cents % 100:02d}"\n    return label.ljust(WIDTH) + amount.rjust(8)\n',
        '    return f"{label:<{WIDTH}}{cents / 100:>8.2f}"\n',
    )
    passes(task, ws)
