"""The twenty-fourth held-out suite (bench/heldout24: ten tasks of one ask each, of heldout22's kind
and difficulty, written without reading the agent's code): each check fails on the untouched
workspace and passes after the reference solution, and what is particular to a task's check is
shown by near-misses that must fail and other honest solutions that must pass. These tasks are
only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import configparser
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

TASKS = load_tasks(BENCH / "heldout24")
EVERY = suite_tasks("heldout24")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_suite_has_its_ten_tasks_and_no_exercises() -> None:
    assert [t.name for t in TASKS] == [
        "k199_fix_plural",
        "k200_add_mask_card",
        "k201_mkdocs_faq_page",
        "k202_rides_summary",
        "k203_rename_get_fee",
        "k204_discard_settings_edit",
        "k205_tag_option",
        "k206_hex_to_rgb",
        "k207_mypy_legacy_section",
        "k208_missing_tally_file",
    ]
    assert not (BENCH / "heldout24" / "exercises").exists()
    assert [t for _, t in EVERY] == TASKS
    for task in TASKS:
        assert (task.folder / "solution.sh").is_file() and (task.folder / "template").is_dir()


@pytest.mark.parametrize(("suite", "task"), EVERY, ids=[t.name for _, t in EVERY])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


PLURAL_BODY = '    if count > 1:\n        return f"{count} {word}s"\n    return f"{count} {word}"\n'


def test_plural_with_a_conditional_suffix_passes() -> None:
    task = _task("k199")
    ws = prepare(task)
    edit(
        ws / "labels.py",
        PLURAL_BODY,
        '    suffix = "" if count == 1 else "s"\n    return f"{count} {word}{suffix}"\n',
    )
    passes(task, ws)


def test_plural_for_zero_and_above_one_only_fails() -> None:
    """-1 stays singular: the prompt says every count except exactly 1."""
    task = _task("k199")
    ws = prepare(task)
    edit(ws / "labels.py", "    if count > 1:\n", "    if count == 0 or count > 1:\n")
    assert workspace_tests_pass(ws, "test_labels.py")
    fails(task, ws)


def test_plural_singular_for_minus_one_too_fails() -> None:
    task = _task("k199")
    ws = prepare(task)
    edit(ws / "labels.py", "    if count > 1:\n", "    if abs(count) != 1:\n")
    assert workspace_tests_pass(ws, "test_labels.py")
    fails(task, ws)


def test_plural_with_the_test_changed_instead_fails() -> None:
    task = _task("k199")
    ws = prepare(task)
    edit(ws / "test_labels.py", '== "0 apples"', '== "0 apple"')
    assert workspace_tests_pass(ws, "test_labels.py")
    fails(task, ws)


def _mask(ws: Path, body: str, head: str = "") -> None:
    path = ws / "cards.py"
    text = path.read_text()
    if head:
        text = text.replace('"""Helpers for the card numbers on the checkout page."""\n', head, 1)
    path.write_text(text + "\n\ndef mask_card(number):\n" + body)


def test_mask_card_with_a_regular_expression_passes() -> None:
    task = _task("k200")
    ws = prepare(task)
    _mask(
        ws,
        "    keep = 4\n"
        "    masked = list(number)\n"
        "    for match in reversed(list(re.finditer(r'\\d', number))):\n"
        "        if keep:\n"
        "            keep -= 1\n"
        "        else:\n"
        "            masked[match.start()] = '*'\n"
        "    return ''.join(masked)\n",
        head='"""Card helpers."""\n\nimport re\n',
    )
    passes(task, ws)


def test_mask_card_masking_the_spaces_too_fails() -> None:
    task = _task("k200")
    ws = prepare(task)
    _mask(
        ws,
        '    if len(number) <= 4:\n        return number\n    return "*" * (len(number) - 4) + number[-4:]\n',
    )
    fails(task, ws)


def test_mask_card_keeping_the_last_four_characters_fails() -> None:
    """Right when the last group has four digits; not for "4111 1111 1111 11 11"."""
    task = _task("k200")
    ws = prepare(task)
    _mask(
        ws,
        '    head, tail = number[:-4], number[-4:]\n    return "".join("*" if c.isdigit() else c for c in head) + tail\n',
    )
    fails(task, ws)


def test_mask_card_failing_on_fewer_than_four_digits_fails() -> None:
    task = _task("k200")
    ws = prepare(task)
    _mask(
        ws,
        "    places = [i for i, c in enumerate(number) if c.isdigit()]\n"
        "    cut = places[-4]\n"
        '    return "".join("*" if c.isdigit() and i < cut else c for i, c in enumerate(number))\n',
    )
    fails(task, ws)


def test_mask_card_in_a_cards_py_written_afresh_fails() -> None:
    task = _task("k200")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "cards.py").read_text()
    (ws / "cards.py").write_text(text[: text.index("def luhn_valid")] + text[text.index("def mask_card") :])
    fails(task, ws)


USAGE = "  - Usage: usage.md\n"


def test_a_quoted_faq_entry_with_a_blank_line_passes() -> None:
    task = _task("k201")
    ws = prepare(task)
    edit(ws / "mkdocs.yml", USAGE, USAGE + '  - "FAQ": "faq.md"\n\n')
    passes(task, ws)


def test_a_faq_entry_at_the_end_of_the_nav_fails() -> None:
    task = _task("k201")
    ws = prepare(task)
    edit(ws / "mkdocs.yml", "  - Changelog: changelog.md\n", "  - Changelog: changelog.md\n  - FAQ: faq.md\n")
    fails(task, ws)


def test_a_faq_entry_under_sensors_fails() -> None:
    task = _task("k201")
    ws = prepare(task)
    edit(
        ws / "mkdocs.yml",
        "      - Light: sensors/light.md\n",
        "      - Light: sensors/light.md\n      - FAQ: faq.md\n",
    )
    fails(task, ws)


def test_a_faq_entry_with_the_docs_folder_in_its_path_fails() -> None:
    """The nav's paths are inside docs/, as its other entries show."""
    task = _task("k201")
    ws = prepare(task)
    edit(ws / "mkdocs.yml", USAGE, USAGE + "  - FAQ: docs/faq.md\n")
    fails(task, ws)


def test_a_faq_entry_with_the_comments_dropped_fails() -> None:
    task = _task("k201")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "mkdocs.yml"
    path.write_text("".join(line for line in path.read_text().splitlines(True) if "#" not in line))
    fails(task, ws)


RIDES = """import csv
import json
from collections import defaultdict

rides = defaultdict(int)
km = defaultdict(float)
with open("rides.csv", newline="") as f:
    for row in csv.DictReader(f):
        rides[row["rider"]] += 1
        km[row["rider"]] += float(row["km"])
out = {}
for name in sorted(rides):
    out[name] = {"km": float(f"{km[name]:.1f}"), "rides": rides[name]}
json.dump(out, open("riders.json", "w"))
"""


def _rides(ws: Path, script: str) -> None:
    (ws / "rides.py").write_text(script)


def test_rides_with_defaultdicts_and_a_formatted_round_passes() -> None:
    task = _task("k202")
    ws = prepare(task)
    _rides(ws, RIDES)
    passes(task, ws)


def test_rides_without_rounding_fails() -> None:
    task = _task("k202")
    ws = prepare(task)
    _rides(ws, RIDES.replace('float(f"{km[name]:.1f}")', "km[name]"))
    fails(task, ws)


def test_rides_in_the_order_of_the_file_fails() -> None:
    task = _task("k202")
    ws = prepare(task)
    _rides(ws, RIDES.replace("sorted(rides)", "rides"))
    fails(task, ws)


def test_rides_with_the_distance_as_text_fails() -> None:
    task = _task("k202")
    ws = prepare(task)
    _rides(ws, RIDES.replace('float(f"{km[name]:.1f}")', 'f"{km[name]:.1f}"'))
    fails(task, ws)


def test_rides_splitting_lines_on_commas_fails() -> None:
    """A route written "River path, out and back" shifts the distance along."""
    task = _task("k202")
    ws = prepare(task)
    script = (
        "import json\n"
        "out = {}\n"
        "for line in open('rides.csv').read().splitlines()[1:]:\n"
        "    date, rider, *rest = line.split(',')\n"
        "    entry = out.setdefault(rider, {'rides': 0, 'km': 0.0})\n"
        "    entry['rides'] += 1\n"
        "    entry['km'] = round(entry['km'] + float(rest[-1]), 1)\n"
        "json.dump(dict(sorted(out.items())), open('riders.json', 'w'))\n"
    )
    _rides(ws, script)
    fails(task, ws)


def test_rides_printed_instead_of_written_fails() -> None:
    task = _task("k202")
    ws = prepare(task)
    _rides(ws, RIDES.replace('json.dump(out, open("riders.json", "w"))', "print(json.dumps(out))"))
    fails(task, ws)


def test_rename_with_ticket_importing_the_module_passes() -> None:
    task = _task("k203")
    ws = prepare(task)
    edit(ws / "parking.py", "def get_fee(", "def parking_fee(")
    edit(ws / "ticket.py", "from parking import as_euros, get_fee\n", "import parking\n")
    edit(ws / "ticket.py", "get_fee(int(minutes))", "parking.parking_fee(int(minutes))")
    text = (ws / "ticket.py").read_text().replace("as_euros(", "parking.as_euros(")
    (ws / "ticket.py").write_text(text)
    passes(task, ws)


def test_rename_in_parking_py_only_fails() -> None:
    task = _task("k203")
    ws = prepare(task)
    edit(ws / "parking.py", "def get_fee(", "def parking_fee(")
    fails(task, ws)


def test_rename_keeping_the_old_name_as_an_alias_fails() -> None:
    task = _task("k203")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "parking.py"
    path.write_text(path.read_text() + "\n\nget_fee = parking_fee\n")
    fails(task, ws)


def test_rename_by_a_wrapper_in_parking_py_fails() -> None:
    """parking_fee calls get_fee: both names stay."""
    task = _task("k203")
    ws = prepare(task)
    path = ws / "parking.py"
    path.write_text(path.read_text() + "\n\ndef parking_fee(minutes):\n    return get_fee(minutes)\n")
    (ws / "ticket.py").write_text((ws / "ticket.py").read_text().replace("get_fee", "parking_fee"))
    fails(task, ws)


def _status(ws: Path) -> list[str]:
    done = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ws, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_the_discard_task_starts_with_two_changed_files() -> None:
    ws = prepare(_task("k204"))
    assert _status(ws) == [" M app.py", " M settings.py"]


def test_settings_written_out_from_the_last_commit_passes() -> None:
    task = _task("k204")
    ws = prepare(task)
    done = subprocess.run(["git", "show", "HEAD:settings.py"], cwd=ws, capture_output=True, check=True)
    (ws / "settings.py").write_bytes(done.stdout)
    passes(task, ws)


def test_settings_restored_with_app_py_staged_passes() -> None:
    """Staged is still uncommitted."""
    task = _task("k204")
    ws = prepare(task)
    git(ws, "add", "app.py")
    git(ws, "restore", "settings.py")
    passes(task, ws)


def test_every_change_thrown_away_fails() -> None:
    task = _task("k204")
    ws = prepare(task)
    git(ws, "checkout", "--", ".")
    fails(task, ws)


def test_both_changes_stashed_fails() -> None:
    task = _task("k204")
    ws = prepare(task)
    git(ws, "stash", "-q")
    fails(task, ws)


def test_settings_restored_and_app_py_committed_fails() -> None:
    task = _task("k204")
    ws = prepare(task)
    solve(task, ws)
    git(ws, "commit", "-qam", "Say updated")
    fails(task, ws)


def test_settings_mended_by_hand_halfway_fails() -> None:
    task = _task("k204")
    ws = prepare(task)
    edit(ws / "settings.py", "STATION_NAME = Allotment 14\n", 'STATION_NAME = "Allotment 14"\n')
    fails(task, ws)


FILE_ARGUMENT = '    parser.add_argument("file", help="the bookmarks file")\n'
LOOP = "    for url, title, tags in read_bookmarks(args.file):\n"


def _tag(ws: Path, argument: str, test: str) -> None:
    edit(ws / "bookmarks.py", FILE_ARGUMENT, FILE_ARGUMENT + argument)
    edit(ws / "bookmarks.py", LOOP, LOOP + f"        if {test}:\n            continue\n")


def test_a_tag_option_with_a_short_form_and_an_empty_default_passes() -> None:
    task = _task("k205")
    ws = prepare(task)
    _tag(ws, '    parser.add_argument("-t", "--tag", default="")\n', "args.tag and args.tag not in tags")
    passes(task, ws)


def test_a_tag_option_matching_part_of_a_tag_fails() -> None:
    task = _task("k205")
    ws = prepare(task)
    _tag(ws, '    parser.add_argument("--tag")\n', 'args.tag and args.tag not in " ".join(tags)')
    fails(task, ws)


def test_a_tag_option_matching_the_title_too_fails() -> None:
    task = _task("k205")
    ws = prepare(task)
    _tag(
        ws,
        '    parser.add_argument("--tag")\n',
        "args.tag and args.tag not in tags and args.tag not in title.lower()",
    )
    fails(task, ws)


def test_a_tag_option_that_lists_nothing_without_it_fails() -> None:
    task = _task("k205")
    ws = prepare(task)
    _tag(ws, '    parser.add_argument("--tag")\n', "args.tag not in tags")
    fails(task, ws)


STUB = "    raise NotImplementedError\n"


def _hex(ws: Path, body: str, imports: str = "") -> None:
    edit(ws / "colors.py", STUB, body)
    if imports:
        edit(ws / "colors.py", '"""\n\n\ndef rgb_to_hex', f'"""\n\n{imports}\n\n\ndef rgb_to_hex')


def test_hex_to_rgb_with_a_regular_expression_passes() -> None:
    task = _task("k206")
    ws = prepare(task)
    _hex(
        ws,
        '    match = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", text)\n'
        "    if not match:\n"
        '        raise ValueError("not a colour")\n'
        "    digits = match.group(1)\n"
        "    if len(digits) == 3:\n"
        "        return tuple(int(c * 2, 16) for c in digits)\n"
        "    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)\n",
        imports="import re",
    )
    passes(task, ws)


INT_PAIRS = (
    '    if not text.startswith("#") or len(text) not in (4, 7):\n'
    '        raise ValueError("not a colour")\n'
    "    digits = text[1:]\n"
    "    if len(digits) == 3:\n"
    '        digits = "".join(c * 2 for c in digits)\n'
    "    return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))\n"
)


def test_hex_to_rgb_trusting_int_to_refuse_what_is_not_hex_fails() -> None:
    """int(" 8", 16) is 8 and int("+1", 16) is 1."""
    task = _task("k206")
    ws = prepare(task)
    _hex(ws, INT_PAIRS)
    assert workspace_tests_pass(ws, "test_colors.py")
    fails(task, ws)


def test_hex_to_rgb_stripping_spaces_first_fails() -> None:
    task = _task("k206")
    ws = prepare(task)
    _hex(
        ws,
        "    text = text.strip()\n"
        '    if not re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", text):\n'
        '        raise ValueError("not a colour")\n' + INT_PAIRS,
        imports="import re",
    )
    assert workspace_tests_pass(ws, "test_colors.py")
    fails(task, ws)


def test_hex_to_rgb_without_the_short_form_and_its_test_deleted_fails() -> None:
    task = _task("k206")
    ws = prepare(task)
    _hex(
        ws,
        '    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):\n'
        '        raise ValueError("not a colour")\n'
        "    return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))\n",
        imports="import re",
    )
    assert not workspace_tests_pass(ws, "test_colors.py")
    edit(ws / "test_colors.py", '    assert hex_to_rgb("#f80") == (255, 136, 0)\n', "    pass\n")
    assert workspace_tests_pass(ws, "test_colors.py")
    fails(task, ws)


REPORTLAB = "[mypy-reportlab.*]\n"


def test_a_legacy_section_listing_both_patterns_before_reportlab_passes() -> None:
    task = _task("k207")
    ws = prepare(task)
    edit(
        ws / "mypy.ini",
        REPORTLAB,
        "[mypy-invoicing.legacy,invoicing.legacy.*]\n# Old code, not worth fixing.\nignore_errors = true\n\n"
        + REPORTLAB,
    )
    passes(task, ws)


def _append(ws: Path, text: str) -> None:
    path = ws / "mypy.ini"
    path.write_text(path.read_text() + text)


def test_a_legacy_section_for_the_package_alone_fails() -> None:
    """Its submodules keep their errors."""
    task = _task("k207")
    ws = prepare(task)
    _append(ws, "\n[mypy-invoicing.legacy]\nignore_errors = True\n")
    fails(task, ws)


def test_errors_ignored_for_the_whole_app_fails() -> None:
    task = _task("k207")
    ws = prepare(task)
    _append(ws, "\n[mypy-invoicing.*]\nignore_errors = True\n")
    fails(task, ws)


def test_ignore_errors_appended_without_a_section_fails() -> None:
    """It lands in the reportlab section."""
    task = _task("k207")
    ws = prepare(task)
    _append(ws, "ignore_errors = True\n")
    fails(task, ws)


def test_a_legacy_section_written_by_configparser_fails() -> None:
    """configparser drops the comments."""
    task = _task("k207")
    ws = prepare(task)
    config = configparser.ConfigParser()
    config.read(ws / "mypy.ini")
    config["mypy-invoicing.legacy.*"] = {"ignore_errors": "True"}
    with open(ws / "mypy.ini", "w") as f:
        config.write(f)
    fails(task, ws)


LOAD = "def load():\n    with open(FILE) as f:\n        return json.load(f)\n"
SHOW = '    elif args[0] == "show":\n'


def test_a_tally_checked_for_with_os_path_passes() -> None:
    task = _task("k208")
    ws = prepare(task)
    edit(
        ws / "tally.py",
        LOAD,
        "def load():\n    if not os.path.exists(FILE):\n        return {}\n"
        "    with open(FILE) as f:\n        return json.load(f)\n",
    )
    edit(ws / "tally.py", "import json\n", "import json\nimport os\n")
    edit(
        ws / "tally.py",
        SHOW,
        SHOW + '        if len(counts) == 0:\n            print("No entries yet.")\n            return\n',
    )
    passes(task, ws)


def test_a_tally_json_made_in_the_folder_instead_fails() -> None:
    task = _task("k208")
    ws = prepare(task)
    (ws / "tally.json").write_text("{}\n")
    edit(ws / "tally.py", SHOW, SHOW + '        if not counts:\n            print("No entries yet.")\n')
    fails(task, ws)


def test_a_missing_tally_read_as_empty_but_shown_as_nothing_fails() -> None:
    task = _task("k208")
    ws = prepare(task)
    edit(
        ws / "tally.py",
        LOAD,
        "def load():\n    try:\n        with open(FILE) as f:\n            return json.load(f)\n"
        "    except FileNotFoundError:\n        return {}\n",
    )
    fails(task, ws)


def test_a_missing_tally_caught_around_main_fails() -> None:
    """add still cannot make the file."""
    task = _task("k208")
    ws = prepare(task)
    edit(
        ws / "tally.py",
        "    main(sys.argv[1:])\n",
        '    try:\n        main(sys.argv[1:])\n    except FileNotFoundError:\n        print("No entries yet.")\n',
    )
    fails(task, ws)


def test_no_entries_only_when_the_file_is_missing_fails() -> None:
    """An empty tally.json shows nothing at all."""
    task = _task("k208")
    ws = prepare(task)
    edit(
        ws / "tally.py",
        "    counts = load()\n",
        '    if args[0] == "show" and not os.path.exists(FILE):\n'
        '        print("No entries yet.")\n'
        "        return\n"
        "    counts = load() if os.path.exists(FILE) else {}\n",
    )
    edit(ws / "tally.py", "import json\n", "import json\nimport os\n")
    fails(task, ws)
