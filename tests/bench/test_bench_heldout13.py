"""The thirteenth held-out suite (bench/heldout13: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout13` makes into bench/heldout13/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout13")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_late_hours_fixed_by_splitting_a_range_at_midnight_passes() -> None:
    task = _task("k108")
    ws = prepare(task)
    edit(
        ws / "hours.py",
        "    for text in ranges:\n        start, end = span(text)\n        if start <= now < end:\n",
        "    for text in ranges:\n"
        "        start, end = span(text)\n"
        "        parts = [(start, end)] if start < end else [(start, 24 * 60), (0, end)]\n"
        "        if any(a <= now < b for a, b in parts):\n",
    )
    edit(
        ws / "hours.py",
        "    return sum(end - start for start, end in map(span, ranges))\n",
        "    total = 0\n"
        "    for start, end in map(span, ranges):\n"
        "        if end <= start:\n"
        "            end += 24 * 60\n"
        "        total += end - start\n"
        "    return total\n",
    )
    assert workspace_tests_pass(ws, "test_hours.py")
    passes(task, ws)


def test_late_hours_with_the_failing_tests_deleted_fail() -> None:
    task = _task("k108")
    ws = prepare(task)
    text = (ws / "test_hours.py").read_text()
    (ws / "test_hours.py").write_text(text[: text.index("def test_open_late_at_night")].rstrip() + "\n")
    assert workspace_tests_pass(ws, "test_hours.py")
    fails(task, ws)


def test_late_hours_hard_coded_for_the_bar_in_the_tests_fail() -> None:
    """Right for 17:00-01:30, the only late range the tests show, and for no other."""
    task = _task("k108")
    ws = prepare(task)
    edit(
        ws / "hours.py",
        "        if start <= now < end:\n",
        '        if start <= now < end or (text == "17:00-01:30" and (now >= start or now < end)):\n',
    )
    edit(
        ws / "hours.py",
        "    return sum(end - start for start, end in map(span, ranges))\n",
        '    if ranges == ["17:00-01:30"]:\n'
        "        return 510\n"
        "    return sum(end - start for start, end in map(span, ranges))\n",
    )
    assert workspace_tests_pass(ws, "test_hours.py")
    fails(task, ws)


def test_late_hours_that_stop_at_the_first_late_range_fail() -> None:
    """A late range answers for all of them: the ranges after it are never looked at."""
    task = _task("k108")
    ws = prepare(task)
    edit(
        ws / "hours.py",
        "        if start <= now < end:\n",
        "        if end <= start:\n            return now >= start or now < end\n        if start <= now < end:\n",
    )
    edit(
        ws / "hours.py",
        "    return sum(end - start for start, end in map(span, ranges))\n",
        "    return sum((end - start) % 1440 for start, end in map(span, ranges))\n",
    )
    assert workspace_tests_pass(ws, "test_hours.py")
    fails(task, ws)


def _dry_run_code(ws: Path, rename_anyway: bool = False) -> None:
    """--dry-run read by hand from sys.argv; with `rename_anyway` it still renames the files."""
    edit(ws / "tidy.py", "def tidy(folder):", "def tidy(folder, dry_run=False):")
    rename = "os.rename(os.path.join(folder, name), os.path.join(folder, new))"
    edit(
        ws / "tidy.py",
        f'        {rename}\n        lines.append(f"renamed {{name}} -> {{new}}")\n',
        "        if dry_run:\n"
        + (f"            {rename}\n" if rename_anyway else "")
        + '            lines.append(f"would rename {name} -> {new}")\n'
        "        else:\n"
        f"            {rename}\n"
        '            lines.append(f"renamed {name} -> {new}")\n',
    )
    edit(ws / "tidy.py", "import os\n", "import os\nimport sys\n")
    edit(
        ws / "tidy.py",
        "    args = parser.parse_args()\n    lines = tidy(args.folder)\n",
        '    dry_run = "--dry-run" in sys.argv\n'
        '    args = parser.parse_args([a for a in sys.argv[1:] if a != "--dry-run"])\n'
        "    lines = tidy(args.folder, dry_run)\n",
    )


DRY_RUN_TEST = """

def test_tidy_dry_run(tmp_path):
    (tmp_path / "A B.txt").write_text("x")
    from tidy import tidy

    assert tidy(str(tmp_path), dry_run=True) == ["would rename A B.txt -> a_b.txt"]
    assert os.listdir(tmp_path) == ["A B.txt"]
"""


def test_a_dry_run_read_by_hand_with_a_direct_test_passes() -> None:
    task = _task("k109")
    ws = prepare(task)
    _dry_run_code(ws)
    (ws / "test_tidy.py").write_text((ws / "test_tidy.py").read_text() + DRY_RUN_TEST)
    passes(task, ws)


def test_a_dry_run_that_still_renames_fails() -> None:
    task = _task("k109")
    ws = prepare(task)
    _dry_run_code(ws, rename_anyway=True)
    (ws / "test_tidy.py").write_text(
        (ws / "test_tidy.py").read_text()
        + DRY_RUN_TEST.replace('    assert os.listdir(tmp_path) == ["A B.txt"]\n', "")
    )
    fails(task, ws)


def test_a_dry_run_without_a_test_fails() -> None:
    task = _task("k109")
    ws = prepare(task)
    _dry_run_code(ws)
    fails(task, ws)


def test_a_dry_run_whose_test_replaces_an_old_one_fails() -> None:
    task = _task("k109")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_tidy.py").read_text()
    start, end = text.index("def test_nothing_to_tidy"), text.index("def test_dry_run")
    (ws / "test_tidy.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_tidy.py")
    fails(task, ws)


def test_a_dry_run_that_prints_the_renamed_lines_fails() -> None:
    task = _task("k109")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "tidy.py",
        'lines.append(f"would rename {name} -> {new}")',
        'lines.append(f"renamed {name} -> {new}")',
    )
    fails(task, ws)


PROGRESS = """import re
import sys

counts = {}
section = None
for line in open(sys.argv[1], encoding="utf-8"):
    heading = re.match(r"## (.+)", line)
    if heading:
        section = heading.group(1).strip()
        continue
    item = re.match(r"- \\[([ xX])\\]", line)
    if item and section:
        done, total = counts.setdefault(section, [0, 0])
        counts[section] = [done + (item.group(1) != " "), total + 1]
done = sum(d for d, t in counts.values())
total = sum(t for d, t in counts.values())
for name, (d, t) in counts.items():
    print(f"{name}: {d} of {t} done")
print(f"total: {done} of {total} done ({100 * done / total:.0f}%)" if total else "no items")
"""


def test_a_checklist_progress_with_regular_expressions_passes() -> None:
    task = _task("k110")
    ws = prepare(task)
    (ws / "progress.py").write_text(PROGRESS)
    passes(task, ws)


def test_a_checklist_progress_that_truncates_the_percentage_fails() -> None:
    task = _task("k110")
    ws = prepare(task)
    (ws / "progress.py").write_text(PROGRESS.replace("{100 * done / total:.0f}%", "{100 * done // total}%"))
    fails(task, ws)


def test_a_checklist_progress_that_finds_a_tick_anywhere_fails() -> None:
    task = _task("k110")
    ws = prepare(task)
    (ws / "progress.py").write_text(
        PROGRESS.replace('re.match(r"- \\[([ xX])\\]", line)', 're.search(r"- \\[([ xX])\\]", line)')
    )
    fails(task, ws)


def test_a_checklist_progress_that_lists_empty_sections_fails() -> None:
    task = _task("k110")
    ws = prepare(task)
    (ws / "progress.py").write_text(
        PROGRESS.replace(
            "        section = heading.group(1).strip()\n",
            "        section = heading.group(1).strip()\n        counts.setdefault(section, [0, 0])\n",
        )
    )
    fails(task, ws)


def test_a_checklist_progress_that_prints_the_example_fails() -> None:
    task = _task("k110")
    ws = prepare(task)
    (ws / "progress.py").write_text(
        "print('Garden: 2 of 4 done')\nprint('House: 1 of 3 done')\nprint('Car: 2 of 2 done')\n"
        "print('total: 5 of 9 done (56%)')\n"
    )
    fails(task, ws)


def test_a_class_renamed_token_by_token_without_a_final_newline_passes() -> None:
    task = _task("k111")
    ws = prepare(task)
    edit(ws / "index.html", 'class="btn btn-primary"', 'class="btn btn-main"')
    edit(ws / "index.html", 'class="btn-primary btn"', 'class="btn-main btn"')
    css = (ws / "style.css").read_text()
    for old in (".btn-primary {", ".btn-primary:hover", ".btn-primary:focus", ".card .btn-primary {"):
        css = css.replace(old, old.replace("btn-primary", "btn-main"))
    (ws / "style.css").write_text(css.rstrip("\n"))
    passes(task, ws)


def test_a_class_renamed_with_a_plain_replace_everywhere_fails() -> None:
    """btn-primary-wide is another class: it must keep its name."""
    task = _task("k111")
    ws = prepare(task)
    for name in ("index.html", "style.css"):
        (ws / name).write_text((ws / name).read_text().replace("btn-primary", "btn-main"))
    fails(task, ws)


def test_a_class_renamed_only_in_the_stylesheet_fails() -> None:
    task = _task("k111")
    ws = prepare(task)
    solve(task, ws)
    (ws / "index.html").write_text((task.folder / "template" / "index.html").read_text())
    fails(task, ws)


def test_a_class_renamed_with_a_rule_dropped_fails() -> None:
    task = _task("k111")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "style.css", "\n.card .btn-main {\n  margin-top: 1rem;\n}\n", "")
    fails(task, ws)


FIX = ("    return km * KM_PER_MILE\n", "    return km / KM_PER_MILE\n")


def test_a_fix_staged_alone_with_the_work_left_in_place_passes() -> None:
    """No stash: the fixed file goes into the index alone and the unfinished work never leaves."""
    task = _task("k112")
    ws = prepare(task)
    edit(ws / "units.py", *FIX)
    fixed = (task.folder / "template" / "units.py").read_text().replace(*FIX)
    (ws / "fixed.py").write_text(fixed)
    blob = subprocess.run(
        ["git", "hash-object", "-w", "fixed.py"], cwd=ws, check=True, capture_output=True, text=True
    ).stdout.strip()
    (ws / "fixed.py").unlink()
    git(ws, "update-index", "--cacheinfo", f"100644,{blob},units.py")
    git(ws, "commit", "-qm", "Fix km to miles")
    passes(task, ws)


def test_a_fix_with_the_stash_applied_and_kept_passes() -> None:
    task = _task("k112")
    ws = prepare(task)
    git(ws, "stash")
    edit(ws / "units.py", *FIX)
    git(ws, "commit", "-qam", "Fix km to miles")
    git(ws, "stash", "apply")
    passes(task, ws)


def test_a_fix_committed_with_the_unfinished_work_fails() -> None:
    task = _task("k112")
    ws = prepare(task)
    edit(ws / "units.py", *FIX)
    git(ws, "commit", "-qam", "Fix km to miles")
    fails(task, ws)


def test_a_fix_that_loses_the_unfinished_work_fails() -> None:
    task = _task("k112")
    ws = prepare(task)
    git(ws, "stash")
    edit(ws / "units.py", *FIX)
    git(ws, "commit", "-qam", "Fix km to miles")
    git(ws, "stash", "drop")
    fails(task, ws)


def test_a_fix_left_uncommitted_fails() -> None:
    task = _task("k112")
    ws = prepare(task)
    edit(ws / "units.py", *FIX)
    fails(task, ws)


def test_a_fix_with_the_unfinished_work_committed_after_it_fails() -> None:
    task = _task("k112")
    ws = prepare(task)
    solve(task, ws)
    git(ws, "commit", "-qam", "Start on pounds")
    fails(task, ws)


def test_a_fix_amended_into_the_last_commit_fails() -> None:
    task = _task("k112")
    ws = prepare(task)
    git(ws, "stash")
    edit(ws / "units.py", *FIX)
    git(ws, "commit", "-q", "--amend", "-am", "Fix km to miles")
    git(ws, "stash", "pop")
    fails(task, ws)


def test_a_settings_table_laid_out_in_columns_passes() -> None:
    task = _task("k113")
    ws = prepare(task)
    text = (ws / "README.md").read_text()
    start, end = text.index("| Setting"), text.index("\n\nSettings given")
    table = (
        "| Setting      | Default      | Description                             |\n"
        "|:-------------|-------------:|-----------------------------------------|\n"
        "| `workers`    | 4            | How many downloads run at once          |\n"
        "| `timeout`    | 60           | Seconds to wait for a server to answer  |\n"
        "| `retries`    | 3            | How often to retry a failed download.   |\n"
        "| out_dir      | `downloads`  | Where the files go                      |\n"
        "| `user_agent` | `fetchy/1.2` | What fetchy calls itself                |"
    )
    (ws / "README.md").write_text(text[:start] + table + text[end:])
    passes(task, ws)


def test_a_settings_table_with_retries_at_the_end_fails() -> None:
    task = _task("k113")
    ws = prepare(task)
    solve(task, ws)
    row = "| `retries` | 3 | How often to retry a failed download |\n"
    edit(ws / "README.md", row, "")
    edit(
        ws / "README.md",
        "| `user_agent` | `fetchy/1.2` | What fetchy calls itself |\n",
        "| `user_agent` | `fetchy/1.2` | What fetchy calls itself |\n" + row,
    )
    fails(task, ws)


def test_a_settings_table_keeping_legacy_mode_fails() -> None:
    task = _task("k113")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "README.md",
        "| `out_dir` |",
        "| `legacy_mode` | false | Name the files the way version 1 did |\n| `out_dir` |",
    )
    fails(task, ws)


def test_a_settings_table_with_the_old_column_name_fails() -> None:
    task = _task("k113")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "README.md", "| Description |", "| What it does |")
    fails(task, ws)


def test_a_settings_table_with_the_text_below_it_changed_fails() -> None:
    task = _task("k113")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "README.md",
        "Settings given on the command line win over the file.",
        "Settings on the command line win.",
    )
    fails(task, ws)


PARAMETRISED = """from fractions import Fraction

import pytest

import recipes


@pytest.mark.parametrize(("args", "wanted"), [((2, 4, 6), 3), ((1, 4, 2), Fraction(1, 2)), ((Fraction(1, 3), 2, 3), Fraction(1, 2))])
def test_scale(args, wanted):
    assert recipes.scale(*args) == wanted


@pytest.mark.parametrize(("amount", "unit", "grams"), [(250, "g", 250), (1.5, "kg", 1500), (4, "oz", 113), (2, "lb", 907)])
def test_to_grams(amount, unit, grams):
    assert recipes.to_grams(amount, unit) == grams


def test_to_grams_refuses_cups():
    with pytest.raises(ValueError, match="unknown unit"):
        recipes.to_grams(1, "cup")


@pytest.mark.parametrize(("value", "text"), [(Fraction(7, 4), "1 3/4"), (Fraction(2, 3), "2/3"), (Fraction(6, 2), "3"), (0, "0")])
def test_nice_fraction(value, text):
    assert recipes.nice_fraction(value) == text
"""


def test_parametrised_recipe_tests_pass() -> None:
    task = _task("k114")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_recipes.py").write_text(PARAMETRISED)
    passes(task, ws)


def test_recipe_tests_without_the_cups_check_fail() -> None:
    task = _task("k114")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "test_recipes.py", '    with pytest.raises(ValueError):\n        to_grams(1, "cup")\n', "")
    assert workspace_tests_pass(ws, "test_recipes.py")
    fails(task, ws)


def test_recipe_tests_in_one_function_fail() -> None:
    task = _task("k114")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_recipes.py").read_text()
    text = text.replace("\n\n\ndef test_to_grams():\n", "\n").replace(
        "\n\n\ndef test_nice_fraction():\n", "\n"
    )
    (ws / "test_recipes.py").write_text(text)
    assert workspace_tests_pass(ws, "test_recipes.py")
    fails(task, ws)


def test_recipe_tests_that_call_the_kept_selftest_fail() -> None:
    task = _task("k114")
    ws = prepare(task)
    (ws / "test_recipes.py").write_text(
        "from recipes import _selftest\n\n\ndef test_scale():\n    _selftest()\n\n\n"
        "def test_to_grams():\n    _selftest()\n\n\ndef test_nice_fraction():\n    _selftest()\n"
    )
    assert workspace_tests_pass(ws, "test_recipes.py")
    fails(task, ws)


def test_recipes_with_the_main_block_kept_fail() -> None:
    task = _task("k114")
    ws = prepare(task)
    solve(task, ws)
    (ws / "recipes.py").write_text(
        (ws / "recipes.py").read_text()
        + '\n\nif __name__ == "__main__":\n    print(nice_fraction(Fraction(7, 4)))\n'
    )
    fails(task, ws)


def test_recipes_with_a_line_of_code_changed_fail() -> None:
    task = _task("k114")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "recipes.py", "return round(amount * factors[unit])", "return int(amount * factors[unit] + 0.5)"
    )
    fails(task, ws)
