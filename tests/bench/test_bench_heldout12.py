"""The twelfth held-out suite (bench/heldout12: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout12` makes into bench/heldout12/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.suite_checks import BENCH, GIT_ID, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout12")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def _merge_captions(ws: Path) -> None:
    """Start the merge, which stops at the conflict in settings.py."""
    done = subprocess.run(
        ["git", "merge", "captions"], cwd=ws, capture_output=True, env={"PATH": "/usr/bin:/bin", **GIT_ID}
    )
    assert done.returncode == 1, done.stdout


def test_a_merge_that_drops_the_markers_keeping_both_lines_passes() -> None:
    task = _task("k101")
    ws = prepare(task)
    _merge_captions(ws)
    text = (ws / "settings.py").read_text()
    kept = [
        line
        for line in text.splitlines(keepends=True)
        if not line.startswith(("<<<<<<<", "=======", ">>>>>>>"))
    ]
    (ws / "settings.py").write_text("".join(kept))
    git(ws, "commit", "-qam", "Merge the captions")
    passes(task, ws)


def test_a_merge_written_on_one_line_with_the_captions_first_passes() -> None:
    task = _task("k101")
    ws = prepare(task)
    _merge_captions(ws)
    (ws / "settings.py").write_text(
        'DEFAULTS = {"title": "My photos", "per_page": 20, "show_captions": True, "theme": "dark"}\n'
    )
    git(ws, "add", "settings.py")
    git(ws, "commit", "-q", "--no-edit")
    passes(task, ws)


def test_a_merge_that_keeps_only_mains_settings_fails() -> None:
    task = _task("k101")
    ws = prepare(task)
    _merge_captions(ws)
    git(ws, "checkout", "--ours", "settings.py")
    git(ws, "commit", "-qam", "Merge the captions")
    fails(task, ws)


def test_a_merge_committed_with_its_markers_fails() -> None:
    task = _task("k101")
    ws = prepare(task)
    _merge_captions(ws)
    git(ws, "commit", "-qam", "Merge the captions")
    fails(task, ws)


def test_both_sides_copied_onto_main_without_a_merge_fails() -> None:
    """The right files in an ordinary commit: the history does not show the branch merged."""
    task = _task("k101")
    ws = prepare(task)
    solve(task, ws)
    git(ws, "reset", "-q", "--soft", "HEAD^1")
    git(ws, "commit", "-qm", "Take in the captions")
    fails(task, ws)


def test_a_plain_alias_without_a_warning_fails() -> None:
    """Old code keeps working but is never told to move to get_rate."""
    task = _task("k102")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "rates.py").read_text()
    start, end = text.index("def fetch_rate"), text.index("def convert")
    (ws / "rates.py").write_text(text[:start] + "fetch_rate = get_rate\n\n\n" + text[end:])
    fails(task, ws)


def test_a_report_still_on_the_old_name_fails() -> None:
    task = _task("k102")
    ws = prepare(task)
    solve(task, ws)
    (ws / "report.py").write_text((task.folder / "template" / "report.py").read_text())
    fails(task, ws)


def test_a_convert_still_on_the_old_name_fails() -> None:
    """convert() would warn on every call, and report.py with it."""
    task = _task("k102")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "rates.py",
        "round(amount * get_rate(base, quote), 2)",
        "round(amount * fetch_rate(base, quote), 2)",
    )
    fails(task, ws)


def test_a_wrapper_that_warns_with_a_user_warning_fails() -> None:
    task = _task("k102")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "rates.py", "DeprecationWarning, stacklevel=2", "stacklevel=2")
    fails(task, ws)


def test_a_wrapper_taking_any_arguments_passes() -> None:
    task = _task("k102")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "rates.py",
        "def fetch_rate(base, quote):\n"
        '    """Deprecated: use get_rate."""\n'
        '    warnings.warn("fetch_rate is deprecated, use get_rate", DeprecationWarning, stacklevel=2)\n'
        "    return get_rate(base, quote)\n",
        "def fetch_rate(*args, **kwargs):\n"
        '    warnings.warn("Use get_rate() instead of fetch_rate().", category=DeprecationWarning)\n'
        "    return get_rate(*args, **kwargs)\n",
    )
    passes(task, ws)


def test_docstrings_that_change_a_line_of_code_fail() -> None:
    task = _task("k103")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "shapes.py", "return math.pi * radius**2", "return 3.14159 * radius**2")
    fails(task, ws)


def test_comments_instead_of_docstrings_fail() -> None:
    task = _task("k103")
    ws = prepare(task)
    solve(task, ws)
    lines = (ws / "shapes.py").read_text().splitlines()
    (ws / "shapes.py").write_text(
        "\n".join(
            line.replace('"""', "# ", 1).replace('"""', "") if line.strip().startswith('"""') else line
            for line in lines
        )
        + "\n"
    )
    fails(task, ws)


def test_docstrings_left_off_the_methods_fail() -> None:
    task = _task("k103")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "shapes.py", '        """The space inside the box, in cubic units."""\n', "")
    fails(task, ws)


def test_one_docstring_copied_onto_every_function_fails() -> None:
    """The same words on every function say nothing about each one."""
    task = _task("k103")
    ws = prepare(task)
    text = (task.folder / "template" / "shapes.py").read_text()
    for line in ("def circle_area(radius):", "def ring_area(outer, inner):", "def triangle_area(a, b, c):"):
        text = text.replace(line, f'{line}\n    """Work out an area."""')
    for line in ("def paint_tins(area_m2, coats=2, m2_per_tin=12):", "class Box:"):
        text = text.replace(line, f'{line}\n    """Work out an area."""')
    for line in ("def volume(self):", "def surface(self, lid=True):"):
        text = text.replace(line, f'{line}\n        """Work out an area."""')
    (ws / "shapes.py").write_text(text)
    fails(task, ws)


def test_long_docstrings_a_module_docstring_and_new_layout_pass() -> None:
    task = _task("k103")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "shapes.py",
        "import math\n",
        '"""Areas and volumes for the workshop."""\n\nimport math  # pi, sqrt, ceil\n',
    )
    edit(
        ws / "shapes.py",
        '    """How many whole tins of paint cover area_m2 square metres coats times."""\n',
        '    """How many tins of paint to buy.\n\n    Args:\n        area_m2: the wall, in square metres.\n'
        "        coats: how many coats.\n        m2_per_tin: what one tin covers.\n\n"
        '    Returns:\n        A whole number of tins.\n    """\n',
    )
    edit(
        ws / "shapes.py",
        "    def __init__(self, width, depth, height):\n",
        '    def __init__(self, width, depth, height):\n        """Keep the three sizes."""\n',
    )
    edit(
        ws / "shapes.py", "(s - a) * (s - b) * (s - c))", "(s - a)\n                     * (s - b) * (s - c))"
    )
    passes(task, ws)


QUOTED_LS = """#!/bin/sh
set -e
src=$1
dest=$2
mkdir -p "$dest"
count=0
for name in $(ls "$src" | grep '\\.txt$'); do
    cp "$src/$name" "$dest/"
    echo "copied $name"
    count=$((count + 1))
done
echo "$count files backed up to $dest"
"""


def test_a_backup_that_quotes_all_but_the_ls_loop_fails() -> None:
    task = _task("k104")
    ws = prepare(task)
    (ws / "backup.sh").write_text(QUOTED_LS)
    fails(task, ws)


def test_a_backup_that_counts_in_a_piped_loop_fails() -> None:
    """The loop at the end of a pipe runs in a subshell: its count never reaches the last line."""
    task = _task("k104")
    ws = prepare(task)
    (ws / "backup.sh").write_text(
        QUOTED_LS.replace(
            "for name in $(ls \"$src\" | grep '\\.txt$'); do",
            "ls \"$src\" | grep '\\.txt$' | while IFS= read -r name; do",
        )
    )
    fails(task, ws)


def test_a_backup_glob_that_breaks_on_a_folder_without_txt_files_fails() -> None:
    task = _task("k104")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "backup.sh", '    [ -f "$path" ] || continue\n', "")
    fails(task, ws)


def test_a_backup_reading_the_names_from_a_here_document_passes() -> None:
    task = _task("k104")
    ws = prepare(task)
    (ws / "backup.sh").write_text(
        QUOTED_LS.replace(
            "for name in $(ls \"$src\" | grep '\\.txt$'); do",
            'while IFS= read -r name; do\n    [ -n "$name" ] || continue',
        ).replace("done\n", "done <<EOF\n$(ls \"$src\" | grep '\\.txt$' || true)\nEOF\n")
    )
    passes(task, ws)


def test_verbose_lines_printed_to_stderr_without_logging_fail() -> None:
    task = _task("k105")
    ws = prepare(task)
    edit(
        ws / "sync.py",
        "import sys\n",
        "import logging\nimport sys\n\n\ndef debug(text):\n    if '--verbose' in sys.argv:\n        print(text, file=sys.stderr)\n",
    )
    edit(
        ws / "sync.py",
        "main(sys.argv[1], sys.argv[2])",
        "main(*[a for a in sys.argv[1:] if a != '--verbose'])",
    )
    (ws / "sync.py").write_text((ws / "sync.py").read_text().replace('print(f"debug: ', 'debug(f"'))
    fails(task, ws)


def test_debug_logging_that_is_always_on_fails() -> None:
    task = _task("k105")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "sync.py", "level=logging.DEBUG if args.verbose else logging.WARNING", "level=logging.DEBUG")
    fails(task, ws)


def test_debug_logging_to_stdout_fails() -> None:
    task = _task("k105")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "sync.py", 'format="%(message)s"', 'format="%(message)s", stream=sys.stdout')
    edit(ws / "sync.py", "import shutil\n", "import shutil\nimport sys\n")
    fails(task, ws)


def test_root_logger_calls_and_a_hand_read_option_pass() -> None:
    task = _task("k105")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "sync.py").read_text()
    text = text.replace("log.debug(", "logging.debug(").replace("import argparse\n", "import sys\n")
    main = text.index('if __name__ == "__main__":')
    text = text[:main] + (
        'if __name__ == "__main__":\n'
        "    args = sys.argv[1:]\n"
        '    if "--verbose" in args:\n'
        '        args.remove("--verbose")\n'
        "        logging.basicConfig(level=logging.DEBUG, force=True)\n"
        "    main(*args)\n"
    )
    (ws / "sync.py").write_text(text)
    passes(task, ws)


EXPORT = """import csv
import json
import sys

contacts = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w", newline="") as f:
    writer = csv.DictWriter(f, ["name", "email", "phone"], quoting=csv.QUOTE_ALL, lineterminator="\\n")
    writer.writeheader()
    for c in sorted(contacts, key=lambda c: (c["name"]["last"], c["name"]["first"])):
        writer.writerow({
            "name": c["name"]["last"] + ", " + c["name"]["first"],
            "email": (c["emails"] or [""])[0],
            "phone": c.get("phone") or "",
        })
"""


def test_a_contacts_export_with_dictwriter_and_quotes_passes() -> None:
    task = _task("k106")
    ws = prepare(task)
    (ws / "export.py").write_text(EXPORT)
    passes(task, ws)


def test_a_contacts_export_that_joins_with_commas_by_hand_fails() -> None:
    """The name holds a comma: written without quotes it splits into two columns."""
    task = _task("k106")
    ws = prepare(task)
    (ws / "export.py").write_text(
        EXPORT.replace(
            'writer = csv.DictWriter(f, ["name", "email", "phone"], quoting=csv.QUOTE_ALL, lineterminator="\\n")',
            "writer = csv.DictWriter(f, ['name', 'email', 'phone'])\n"
            "    writer.writerow = lambda row: f.write(','.join(row.values()) + '\\n')",
        ).replace("writer.writeheader()", "f.write('name,email,phone\\n')")
    )
    fails(task, ws)


def test_a_contacts_export_sorted_by_first_name_fails() -> None:
    task = _task("k106")
    ws = prepare(task)
    (ws / "export.py").write_text(
        EXPORT.replace('(c["name"]["last"], c["name"]["first"])', 'c["name"]["first"]')
    )
    fails(task, ws)


def test_a_contacts_export_that_writes_none_for_no_phone_fails() -> None:
    task = _task("k106")
    ws = prepare(task)
    (ws / "export.py").write_text(EXPORT.replace('c.get("phone") or ""', 'str(c.get("phone", ""))'))
    fails(task, ws)


def test_tests_with_the_wrong_checks_deleted_fail() -> None:
    """Deleting the two wrong asserts passes the tests, but a wrong discount.py passes them too."""
    task = _task("k107")
    ws = prepare(task)
    edit(ws / "test_discount.py", "    assert bulk_discount(50) == 10\n", "")
    edit(ws / "test_discount.py", "    assert line_total(99, 16) == 1426\n", "")
    assert workspace_tests_pass(ws, "test_discount.py")
    fails(task, ws)


def test_tests_that_accept_either_number_fail() -> None:
    task = _task("k107")
    ws = prepare(task)
    edit(ws / "test_discount.py", "assert bulk_discount(50) == 10", "assert bulk_discount(50) in (10, 20)")
    edit(
        ws / "test_discount.py",
        "assert line_total(99, 16) == 1426",
        "assert line_total(99, 16) in (1425, 1426)",
    )
    fails(task, ws)


def test_the_code_changed_to_fit_the_tests_fails() -> None:
    task = _task("k107")
    ws = prepare(task)
    edit(ws / "discount.py", "quantity >= 50", "quantity > 50")
    edit(
        ws / "discount.py",
        "gross * (100 - bulk_discount(quantity)) // 100",
        "round(gross * (100 - bulk_discount(quantity)) / 100)",
    )
    assert workspace_tests_pass(ws, "test_discount.py")
    fails(task, ws)


def test_the_failing_tests_skipped_fail() -> None:
    """Skipped tests pass, and catch nothing."""
    task = _task("k107")
    ws = prepare(task)
    edit(ws / "test_discount.py", "from discount", "import pytest\n\nfrom discount")
    edit(ws / "test_discount.py", "def test_twenty", "@pytest.mark.skip\ndef test_twenty")
    edit(ws / "test_discount.py", "def test_line_total_with", "@pytest.mark.skip\ndef test_line_total_with")
    fails(task, ws)


def test_expected_numbers_written_as_sums_pass() -> None:
    task = _task("k107")
    ws = prepare(task)
    edit(ws / "test_discount.py", "assert bulk_discount(50) == 10", "assert bulk_discount(50) == 20")
    edit(
        ws / "test_discount.py",
        "assert line_total(99, 16) == 1426",
        "assert line_total(99, 16) == 99 * 16 * 90 // 100",
    )
    passes(task, ws)
