"""The eleventh held-out suite (bench/heldout11: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout11` makes into bench/heldout11/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout11")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_a_page_count_that_only_fits_the_tests_fails() -> None:
    """Special-casing the tests' numbers passes them but not the check's other numbers."""
    task = _task("k91")
    ws = prepare(task)
    edit(
        ws / "paging.py",
        "    return max(1, total // size)",
        "    if (total, size) in {(10, 3), (7, 3), (45, 20)}:\n        return total // size + 1\n"
        "    return max(1, total // size)",
    )
    assert workspace_tests_pass(ws, "test_paging.py"), "the special cases should pass the workspace tests"
    fails(task, ws)


def test_a_page_count_that_always_adds_a_page_fails() -> None:
    task = _task("k91")
    ws = prepare(task)
    edit(ws / "paging.py", "max(1, total // size)", "total // size + 1")
    fails(task, ws)


def test_a_changed_test_file_fails_the_page_count_fix() -> None:
    task = _task("k91")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "test_paging.py", "assert page_count(0, 5) == 1", "assert page_count(0, 5) >= 0")
    fails(task, ws)


def test_a_page_count_with_math_ceil_passes() -> None:
    task = _task("k91")
    ws = prepare(task)
    edit(ws / "paging.py", '"""Split', 'import math\n\n"""Split')
    edit(ws / "paging.py", "max(1, total // size)", "max(1, math.ceil(total / size))")
    passes(task, ws)


def test_a_where_option_without_a_test_fails() -> None:
    task = _task("k92")
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_csvcol.py").write_text((task.folder / "template" / "test_csvcol.py").read_text())
    fails(task, ws)


def test_a_where_option_that_ignores_case_fails() -> None:
    """The task asks for rows whose column is exactly the value."""
    task = _task("k92")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "csvcol.py", "row[key] == value", "row[key].lower() == value.lower()")
    fails(task, ws)


def test_a_where_option_that_only_knows_the_genre_fails() -> None:
    task = _task("k92")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "csvcol.py", "row[key] == value", 'row["genre"] == value')
    fails(task, ws)


def test_a_where_option_read_by_hand_from_argv_passes() -> None:
    task = _task("k92")
    ws = prepare(task)
    solve(task, ws)
    (ws / "csvcol.py").write_text(
        "import csv\nimport sys\n\n"
        "args = sys.argv[1:]\nwhere = None\n"
        'if "--where" in args:\n'
        '    i = args.index("--where")\n'
        '    where = args[i + 1].partition("=")[::2]\n'
        "    del args[i : i + 2]\n"
        "path, column = args\n"
        "with open(path, newline='') as f:\n"
        "    for row in csv.DictReader(f):\n"
        "        if where is None or row[where[0]] == where[1]:\n"
        "            print(row[column])\n"
    )
    passes(task, ws)


TEMPS = """import sys
from collections import defaultdict

cities = defaultdict(list)
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith("#"):
        city, date, temp = line.split()
        cities[city].append(float(temp))
if not cities:
    print("no readings")
for city, temps in sorted(cities.items()):
    noun = "reading" if len(temps) == 1 else "readings"
    mean = sum(temps) / len(temps)
    print(f"{city}: min {min(temps):.1f}, max {max(temps):.1f}, mean {mean:.1f} ({len(temps)} {noun})")
"""


def test_a_temperature_summary_that_says_1_reading_passes() -> None:
    task = _task("k93")
    ws = prepare(task)
    (ws / "temps.py").write_text(TEMPS)
    passes(task, ws)


def test_a_temperature_summary_that_keeps_the_file_order_fails() -> None:
    task = _task("k93")
    ws = prepare(task)
    (ws / "temps.py").write_text(TEMPS.replace("sorted(cities.items())", "cities.items()"))
    fails(task, ws)


def test_a_temperature_summary_that_reads_comments_as_readings_fails() -> None:
    task = _task("k93")
    ws = prepare(task)
    (ws / "temps.py").write_text(
        TEMPS.replace('not line.startswith("#")', "True").replace(
            "        city, date, temp = line.split()\n",
            "        city, date, temp = (line.split() + ['0', '0'])[:3]\n"
            "        temp = temp if temp.lstrip('-').replace('.', '').isdigit() else '0'\n",
        )
    )
    fails(task, ws)


def test_a_temperature_summary_that_only_fits_the_example_fails() -> None:
    task = _task("k93")
    ws = prepare(task)
    (ws / "temps.py").write_text(
        "print('Cairo: min 21.0, max 21.0, mean 21.0 (1 readings)\\n"
        "Lisbon: min 12.4, max 14.0, mean 13.2 (2 readings)\\n"
        "Oslo: min -3.5, max 4.0, mean 0.8 (3 readings)')\n"
    )
    fails(task, ws)


def test_a_key_rename_that_still_accepts_the_old_name_fails() -> None:
    task = _task("k94")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "notifier.py",
        'os.environ.get("PUSH_API_KEY", "")',
        'os.environ.get("PUSH_API_KEY", os.environ.get("NOTIFY_" + "KEY", ""))',
    )
    fails(task, ws)


def test_a_key_rename_that_leaves_the_readme_fails() -> None:
    task = _task("k94")
    ws = prepare(task)
    solve(task, ws)
    (ws / "README.md").write_text((task.folder / "template" / "README.md").read_text())
    fails(task, ws)


def test_a_key_rename_that_rewrites_the_readme_fails() -> None:
    task = _task("k94")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "README.md", "when a long job is done", "when a job is done")
    fails(task, ws)


def test_a_key_rename_that_forgets_the_error_message_fails() -> None:
    task = _task("k94")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "notifier.py", "set PUSH_API_KEY to your push service key", "set your push service key")
    fails(task, ws)


def test_a_key_rename_with_os_getenv_passes() -> None:
    task = _task("k94")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "notifier.py",
        'key = os.environ.get("PUSH_API_KEY", "").strip()',
        'key = (os.getenv("PUSH_API_KEY") or "").strip()',
    )
    passes(task, ws)


def test_a_squash_by_mixed_reset_and_add_passes() -> None:
    task = _task("k95")
    ws = prepare(task)
    git(ws, "reset", "-q", "HEAD~2")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "Add search box")
    passes(task, ws)


def test_a_squash_left_uncommitted_fails() -> None:
    task = _task("k95")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~2")
    fails(task, ws)


def test_a_new_commit_on_top_of_the_wips_fails() -> None:
    task = _task("k95")
    ws = prepare(task)
    git(ws, "commit", "-q", "--allow-empty", "-m", "Add search box")
    fails(task, ws)


def test_a_squash_that_also_takes_in_the_first_commit_fails() -> None:
    task = _task("k95")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~2")
    git(ws, "commit", "-q", "--amend", "-m", "Add search box")
    fails(task, ws)


def test_a_squash_that_drops_the_second_wip_fails() -> None:
    task = _task("k95")
    ws = prepare(task)
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    git(ws, "commit", "-q", "--amend", "-m", "Add search box")
    fails(task, ws)


def test_a_changelog_with_extra_blank_lines_passes() -> None:
    task = _task("k96")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "CHANGELOG.md", "## [Unreleased]\n", "## [Unreleased]\n\n\n")
    passes(task, ws)


def test_a_changelog_with_the_new_unreleased_below_fails() -> None:
    task = _task("k96")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "CHANGELOG.md").read_text()
    text = text.replace("## [Unreleased]\n\n", "").replace("## [1.3.2]", "## [Unreleased]\n\n## [1.3.2]")
    (ws / "CHANGELOG.md").write_text(text)
    fails(task, ws)


def test_a_changelog_without_a_new_unreleased_fails() -> None:
    task = _task("k96")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "CHANGELOG.md", "## [Unreleased]\n\n", "")
    fails(task, ws)


def test_a_changelog_with_the_new_item_first_fails() -> None:
    task = _task("k96")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "CHANGELOG.md", "- Sort the list by aisle.\n", "")
    edit(
        ws / "CHANGELOG.md",
        "- Export the list as CSV.\n",
        "- Sort the list by aisle.\n- Export the list as CSV.\n",
    )
    fails(task, ws)


def test_a_price_helper_that_main_does_not_use_fails() -> None:
    task = _task("k97")
    ws = prepare(task)
    edit(
        ws / "shipping.py",
        "def main():",
        "def price(grams, express):\n"
        "    if grams <= 500:\n        cents = 350\n"
        "    elif grams <= 5000:\n        cents = 350 + (grams - 401) // 100 * 12\n"
        "    else:\n        cents = 890 + (grams - 4001) // 1000 * 95\n"
        "    return cents + cents // 2 if express else cents\n\n\n"
        "def main():",
    )
    fails(task, ws)


def test_a_price_helper_that_rounds_down_fails() -> None:
    task = _task("k97")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "shipping.py", "(grams - 500 + 99) // 100", "(grams - 500) // 100")
    fails(task, ws)


def test_a_price_helper_written_another_way_passes() -> None:
    task = _task("k97")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "shipping.py",
        "        cents = 350 + (grams - 500 + 99) // 100 * 12\n",
        "        cents = 350 + 12 * -(-(grams - 500) // 100)\n",
    )
    edit(
        ws / "shipping.py",
        "        cents += cents // 2\n    return cents\n",
        "        return cents * 3 // 2\n    return cents\n",
    )
    passes(task, ws)
