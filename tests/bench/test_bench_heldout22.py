"""The twenty-second held-out suite (bench/heldout22: ten tasks of one ask each, easier than
heldout21's): each check fails on the untouched workspace and passes after the reference
solution, and what is particular to a task's check is shown by near-misses that must fail and
other honest solutions that must pass. These tasks are only for measuring; no harness change is
tuned on them."""

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
    workspace_tests_pass,
)
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout22")
EVERY = suite_tasks("heldout22")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_suite_has_its_ten_tasks_and_no_exercises() -> None:
    assert [t.name for t in TASKS] == [
        "k179_fix_median",
        "k180_add_slugify",
        "k181_backup_exclude",
        "k182_region_totals",
        "k183_rename_fmt_money",
        "k184_commit_changes",
        "k185_top_option",
        "k186_parse_duration",
        "k187_readme_contributing",
        "k188_no_marks_crash",
    ]
    assert not (BENCH / "heldout22" / "exercises").exists()
    assert [t for _, t in EVERY] == TASKS
    for task in TASKS:
        assert (task.folder / "solution.sh").is_file() and (task.folder / "template").is_dir()


@pytest.mark.parametrize(("suite", "task"), EVERY, ids=[t.name for _, t in EVERY])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


MEDIAN_BUG = "        return (ordered[middle] + ordered[middle + 1]) / 2\n"


def test_median_from_the_statistics_module_passes() -> None:
    task = _task("k179")
    ws = prepare(task)
    edit(ws / "stats.py", '"""\n\n\ndef mean', '"""\n\nimport statistics\n\n\ndef mean')
    edit(
        ws / "stats.py",
        "    ordered = sorted(values)\n    middle = len(ordered) // 2\n    if len(ordered) % 2 == 0:\n"
        + MEDIAN_BUG
        + "    return ordered[middle]\n",
        "    return statistics.median(values)\n",
    )
    passes(task, ws)


def test_median_with_the_test_changed_instead_fails() -> None:
    task = _task("k179")
    ws = prepare(task)
    edit(ws / "test_stats.py", "== 2.5", "== 3.5")
    assert workspace_tests_pass(ws, "test_stats.py")
    fails(task, ws)


def test_median_taking_the_second_and_third_values_fails() -> None:
    """Right for four values, as the test has, and for no other even count."""
    task = _task("k179")
    ws = prepare(task)
    edit(ws / "stats.py", MEDIAN_BUG, "        return (ordered[1] + ordered[2]) / 2\n")
    assert workspace_tests_pass(ws, "test_stats.py")
    fails(task, ws)


def test_median_rounded_down_to_a_whole_number_fails() -> None:
    task = _task("k179")
    ws = prepare(task)
    edit(ws / "stats.py", MEDIAN_BUG, "        return (ordered[middle - 1] + ordered[middle]) // 2\n")
    assert not workspace_tests_pass(ws, "test_stats.py")
    fails(task, ws)


def _slugify(ws: Path, body: str) -> None:
    text = (ws / "textutils.py").read_text()
    (ws / "textutils.py").write_text(text + "\n\ndef slugify(title):\n" + body)


def test_slugify_with_a_regular_expression_passes() -> None:
    task = _task("k180")
    ws = prepare(task)
    edit(
        ws / "textutils.py",
        '"""Text helpers for the blog generator."""\n',
        '"""Text helpers."""\n\nimport re\n',
    )
    _slugify(ws, '    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n')
    passes(task, ws)


def test_slugify_keeping_underscores_fails() -> None:
    task = _task("k180")
    ws = prepare(task)
    edit(
        ws / "textutils.py",
        '"""Text helpers for the blog generator."""\n',
        '"""Text helpers."""\n\nimport re\n',
    )
    _slugify(ws, '    return re.sub(r"\\W+", "-", title.lower()).strip("-")\n')
    fails(task, ws)


def test_slugify_with_a_hyphen_for_every_character_fails() -> None:
    task = _task("k180")
    ws = prepare(task)
    _slugify(
        ws,
        '    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in title.lower())\n'
        '    return slug.strip("-")\n',
    )
    fails(task, ws)


def test_slugify_in_a_textutils_py_written_afresh_fails() -> None:
    """The other helpers are gone."""
    task = _task("k180")
    ws = prepare(task)
    (ws / "textutils.py").write_text(
        'import re\n\n\ndef slugify(title):\n    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n'
    )
    fails(task, ws)


EXCLUDE = 'exclude = ["*.tmp", "node_modules"]\n'


def test_exclude_over_several_lines_with_a_comment_passes() -> None:
    task = _task("k181")
    ws = prepare(task)
    edit(
        ws / "backup.toml",
        'destination = "/mnt/nas/backups"\n',
        'destination = "/mnt/nas/backups"\n# Left out of every backup.\nexclude = [\n    "node_modules",\n    "*.tmp",\n]\n',
    )
    passes(task, ws)


def test_exclude_in_a_second_backup_table_at_the_end_fails() -> None:
    task = _task("k181")
    ws = prepare(task)
    path = ws / "backup.toml"
    path.write_text(path.read_text() + "\n[backup]\n" + EXCLUDE)
    fails(task, ws)


def test_exclude_appended_to_the_end_of_the_file_fails() -> None:
    """It lands in the notify table."""
    task = _task("k181")
    ws = prepare(task)
    path = ws / "backup.toml"
    path.write_text(path.read_text() + EXCLUDE)
    fails(task, ws)


def test_exclude_with_the_comments_dropped_fails() -> None:
    task = _task("k181")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "backup.toml"
    path.write_text("".join(line for line in path.read_text().splitlines(True) if not line.startswith("#")))
    fails(task, ws)


def test_exclude_as_one_string_fails() -> None:
    task = _task("k181")
    ws = prepare(task)
    edit(ws / "backup.toml", "compress = true\n", 'compress = true\nexclude = "*.tmp, node_modules"\n')
    fails(task, ws)


REGION_TOTALS = """import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["region"]] += float(row["amount"])
for region in sorted(totals, key=totals.get, reverse=True):
    print(f"{region}: {totals[region]:.2f}")
"""


def test_region_totals_with_a_defaultdict_passes() -> None:
    task = _task("k182")
    ws = prepare(task)
    (ws / "region_totals.py").write_text(REGION_TOTALS)
    passes(task, ws)


def test_region_totals_in_alphabetical_order_fails() -> None:
    task = _task("k182")
    ws = prepare(task)
    (ws / "region_totals.py").write_text(REGION_TOTALS.replace("key=totals.get, reverse=True", ""))
    fails(task, ws)


def test_region_totals_without_two_decimals_fails() -> None:
    task = _task("k182")
    ws = prepare(task)
    (ws / "region_totals.py").write_text(REGION_TOTALS.replace(":.2f}", "}"))
    fails(task, ws)


def test_region_totals_splitting_lines_on_commas_fails() -> None:
    """A rep written "Okafor, Ada" shifts the amount along."""
    task = _task("k182")
    ws = prepare(task)
    script = (
        "totals = {}\n"
        "for line in open('sales.csv').read().splitlines()[1:]:\n"
        "    fields = line.split(',')\n"
        "    totals[fields[1]] = totals.get(fields[1], 0) + float(fields[3])\n"
        "for region in sorted(totals, key=totals.get, reverse=True):\n"
        "    print(f'{region}: {totals[region]:.2f}')\n"
    )
    (ws / "region_totals.py").write_text(script)
    fails(task, ws)


def test_region_totals_printed_from_a_table_fails() -> None:
    task = _task("k182")
    ws = prepare(task)
    (ws / "region_totals.py").write_text(
        'print("West: 2140.00")\nprint("East: 2120.00")\nprint("North: 1750.70")\nprint("South: 1300.50")\n'
    )
    fails(task, ws)


def test_rename_with_receipt_importing_the_module_passes() -> None:
    task = _task("k183")
    ws = prepare(task)
    edit(ws / "money.py", "def fmt_money(", "def format_price(")
    edit(ws / "receipt.py", "from money import fmt_money, parse_money\n", "import money\n")
    edit(ws / "receipt.py", "parse_money(price)", "money.parse_money(price)")
    text = (ws / "receipt.py").read_text().replace("fmt_money(", "money.format_price(")
    (ws / "receipt.py").write_text(text)
    passes(task, ws)


def test_rename_in_money_py_only_fails() -> None:
    task = _task("k183")
    ws = prepare(task)
    edit(ws / "money.py", "def fmt_money(", "def format_price(")
    fails(task, ws)


def test_rename_keeping_the_old_name_as_an_alias_fails() -> None:
    task = _task("k183")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "money.py"
    path.write_text(path.read_text() + "\n\nfmt_money = format_price\n")
    fails(task, ws)


def test_rename_by_a_wrapper_in_money_py_fails() -> None:
    """format_price calls fmt_money: both names stay."""
    task = _task("k183")
    ws = prepare(task)
    path = ws / "money.py"
    path.write_text(path.read_text() + "\n\ndef format_price(cents):\n    return fmt_money(cents)\n")
    text = (ws / "receipt.py").read_text().replace("fmt_money", "format_price")
    (ws / "receipt.py").write_text(text)
    fails(task, ws)


MESSAGE = "Sort notes by date and add a to-do list"


def test_a_commit_of_everything_with_add_all_passes() -> None:
    task = _task("k184")
    ws = prepare(task)
    (ws / "msg.txt").write_text(MESSAGE + "\n")
    git(ws, "add", "-A", ":!msg.txt")
    git(ws, "commit", "-q", "-F", "msg.txt")
    passes(task, ws)


def test_a_commit_with_commit_all_leaving_out_the_new_file_fails() -> None:
    task = _task("k184")
    ws = prepare(task)
    git(ws, "commit", "-qam", MESSAGE)
    fails(task, ws)


def test_a_commit_with_another_message_fails() -> None:
    task = _task("k184")
    ws = prepare(task)
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "Sort notes by date and add a todo list")
    fails(task, ws)


def test_the_changes_amended_into_the_first_commit_fails() -> None:
    task = _task("k184")
    ws = prepare(task)
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "--amend", "-m", MESSAGE)
    fails(task, ws)


def test_the_commit_task_starts_with_a_change_and_a_new_file() -> None:
    ws = prepare(_task("k184"))
    done = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ws, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [" M notes.py", "?? todo.md"]


SORTED_LOOP = "    for word, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):\n"
FILE_ARGUMENT = '    parser.add_argument("file", help="the text file to read")\n'


def _top(ws: Path, argument: str, loop: str) -> None:
    edit(ws / "wordfreq.py", FILE_ARGUMENT, FILE_ARGUMENT + argument)
    edit(ws / "wordfreq.py", SORTED_LOOP, loop)


def test_a_top_option_with_a_default_of_zero_meaning_all_passes() -> None:
    task = _task("k185")
    ws = prepare(task)
    _top(
        ws,
        '    parser.add_argument("-t", "--top", type=int, default=0)\n',
        "    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))\n"
        "    for word, n in ranked[: args.top] if args.top else ranked:\n",
    )
    passes(task, ws)


def test_a_top_option_defaulting_to_ten_fails() -> None:
    task = _task("k185")
    ws = prepare(task)
    _top(
        ws,
        '    parser.add_argument("--top", type=int, default=10)\n',
        SORTED_LOOP.replace("item[0])):", "item[0]))[: args.top]:"),
    )
    fails(task, ws)


def test_a_top_option_printing_one_too_many_fails() -> None:
    task = _task("k185")
    ws = prepare(task)
    _top(
        ws,
        '    parser.add_argument("--top", type=int)\n',
        "    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))\n"
        "    for word, n in ranked[: args.top + 1] if args.top else ranked:\n",
    )
    fails(task, ws)


def test_a_top_option_with_most_common_fails() -> None:
    """Counter.most_common keeps equal counts in the order the words first came, not alphabetical."""
    task = _task("k185")
    ws = prepare(task)
    _top(
        ws,
        '    parser.add_argument("--top", type=int)\n',
        "    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))\n"
        "    for word, n in counts.most_common(args.top) if args.top else ranked:\n",
    )
    fails(task, ws)


STUB = "    raise NotImplementedError\n"


def _parse(ws: Path, body: str) -> None:
    edit(ws / "durations.py", STUB, body)
    edit(ws / "durations.py", '"""\n\n\ndef format_duration', '"""\n\nimport re\n\n\ndef format_duration')


def test_parse_duration_by_hand_passes() -> None:
    task = _task("k186")
    ws = prepare(task)
    edit(
        ws / "durations.py",
        STUB,
        "    units = {'h': 3600, 'm': 60, 's': 1}\n"
        "    total, number, last, parts = 0, '', -1, 0\n"
        "    for char in text:\n"
        "        if char.isdigit():\n"
        "            number += char\n"
        "        elif char in units and number:\n"
        "            rank = 'hms'.index(char)\n"
        "            if rank <= last:\n"
        "                raise ValueError(text)\n"
        "            total, number, last, parts = total + int(number) * units[char], '', rank, parts + 1\n"
        "        elif char == ' ' and not number:\n"
        "            continue\n"
        "        else:\n"
        "            raise ValueError(text)\n"
        "    if number or not parts:\n"
        "        raise ValueError(text)\n"
        "    return total\n",
    )
    passes(task, ws)


def test_parse_duration_adding_up_parts_in_any_order_fails() -> None:
    """ "30m1h" and "1h1h" come out as durations."""
    task = _task("k186")
    ws = prepare(task)
    _parse(
        ws,
        '    if not re.fullmatch(r"( *\\d+[hms])+ *", text):\n'
        "        raise ValueError(text)\n"
        '    units = {"h": 3600, "m": 60, "s": 1}\n'
        '    return sum(int(n) * units[u] for n, u in re.findall(r"(\\d+)([hms])", text))\n',
    )
    assert workspace_tests_pass(ws, "test_durations.py")
    fails(task, ws)


def test_parse_duration_taking_decimals_fails() -> None:
    task = _task("k186")
    ws = prepare(task)
    _parse(
        ws,
        '    match = re.fullmatch(r"(?:([\\d.]+)h)? *(?:([\\d.]+)m)? *(?:([\\d.]+)s)?", text)\n'
        "    if not text or not match:\n"
        "        raise ValueError(text)\n"
        "    h, m, s = (float(part or 0) for part in match.groups())\n"
        "    return int(h * 3600 + m * 60 + s)\n",
    )
    assert workspace_tests_pass(ws, "test_durations.py")
    fails(task, ws)


def test_parse_duration_with_the_failing_test_deleted_fails() -> None:
    task = _task("k186")
    ws = prepare(task)
    _parse(
        ws,
        '    match = re.fullmatch(r"(?:(\\d+)h)? *(?:(\\d+)m)? *(?:(\\d+)s)?", text)\n'
        "    h, m, s = (int(part or 0) for part in match.groups())\n"
        "    return h * 3600 + m * 60 + s\n",
    )
    text = (ws / "test_durations.py").read_text()
    (ws / "test_durations.py").write_text(text[: text.index("\n\n\ndef test_parse_rejects")] + "\n")
    assert workspace_tests_pass(ws, "test_durations.py")
    fails(task, ws)


LICENSE = "## License\n"


def test_a_contributing_section_with_a_fenced_block_passes() -> None:
    task = _task("k187")
    ws = prepare(task)
    section = (
        "## Contributing\n\nFound a bug? Bug reports and pull-requests are welcome!\n\n"
        "```sh\n# run the tests\npython3 -m pytest\n```\n\n\n"
    )
    edit(ws / "README.md", LICENSE, section + LICENSE)
    path = ws / "README.md"
    path.write_text(path.read_text().rstrip("\n"))
    passes(task, ws)


SECTION = "## Contributing\n\nBug reports and pull requests are welcome. Run the tests with `python3 -m pytest`.\n\n"


def test_a_contributing_section_at_the_end_fails() -> None:
    task = _task("k187")
    ws = prepare(task)
    path = ws / "README.md"
    path.write_text(path.read_text() + "\n" + SECTION)
    fails(task, ws)


def test_a_readme_written_out_twice_fails() -> None:
    task = _task("k187")
    ws = prepare(task)
    path = ws / "README.md"
    old = path.read_text()
    path.write_text(old + "\n" + old.replace(LICENSE, SECTION + LICENSE))
    fails(task, ws)


def test_a_contributing_section_one_level_down_fails() -> None:
    task = _task("k187")
    ws = prepare(task)
    edit(ws / "README.md", LICENSE, "#" + SECTION + LICENSE)
    fails(task, ws)


def test_a_contributing_section_without_the_test_command_fails() -> None:
    task = _task("k187")
    ws = prepare(task)
    edit(ws / "README.md", LICENSE, SECTION.replace("`python3 -m pytest`", "pytest") + LICENSE)
    fails(task, ws)


REPORT_LINE = "        print(f\"{student['name']}: {average(student['marks']):.1f}\")\n"


def test_no_marks_handled_in_average_passes() -> None:
    task = _task("k188")
    ws = prepare(task)
    edit(
        ws / "report.py",
        "    return sum(marks) / len(marks)\n",
        "    return sum(marks) / len(marks) if marks else None\n",
    )
    edit(
        ws / "report.py",
        REPORT_LINE,
        "        mean = average(student['marks'])\n"
        "        shown = 'no marks' if mean is None else f'{mean:.1f}'\n"
        "        print(f\"{student['name']}: {shown}\")\n",
    )
    passes(task, ws)


def test_no_marks_students_left_out_fails() -> None:
    task = _task("k188")
    ws = prepare(task)
    edit(ws / "report.py", REPORT_LINE, "        if student['marks']:\n    " + REPORT_LINE)
    fails(task, ws)


def test_no_marks_shown_as_zero_fails() -> None:
    task = _task("k188")
    ws = prepare(task)
    edit(
        ws / "report.py",
        "    return sum(marks) / len(marks)\n",
        "    return sum(marks) / max(len(marks), 1)\n",
    )
    fails(task, ws)


def test_no_marks_printed_for_omar_by_name_fails() -> None:
    task = _task("k188")
    ws = prepare(task)
    edit(
        ws / "report.py",
        REPORT_LINE,
        "        if student['name'] == 'Omar':\n            print('Omar: no marks')\n            continue\n"
        + REPORT_LINE,
    )
    fails(task, ws)


def test_no_marks_caught_around_the_whole_loop_fails() -> None:
    """The students after the first one without marks are never printed."""
    task = _task("k188")
    ws = prepare(task)
    loop = '    for student in data["students"]:\n' + REPORT_LINE
    caught = (
        "    try:\n"
        '        for student in data["students"]:\n'
        "    " + REPORT_LINE + "    except ZeroDivisionError:\n"
        "        print(f\"{student['name']}: no marks\")\n"
    )
    edit(ws / "report.py", loop, caught)
    fails(task, ws)
