"""The sixteenth held-out suite (bench/heldout16: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout16` makes into bench/heldout16/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import json
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout16")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_initials_split_on_a_regular_expression_passes() -> None:
    task = _task("k129")
    ws = prepare(task)
    edit(ws / "initials.py", "import sys\n", "import re\nimport sys\n")
    edit(
        ws / "initials.py",
        '    parts = name.split(" ")\n',
        '    parts = [p for p in re.split(r"[ -]+", name) if p]\n',
    )
    assert workspace_tests_pass(ws, "test_initials.py")
    passes(task, ws)


def test_initials_with_only_the_spaces_fixed_fails() -> None:
    task = _task("k129")
    ws = prepare(task)
    edit(ws / "initials.py", '    parts = name.split(" ")', "    parts = name.split()")
    assert not workspace_tests_pass(ws, "test_initials.py")
    fails(task, ws)


def test_initials_with_only_one_hyphen_handled_fails() -> None:
    """Splitting off the first hyphen only passes the tests, but not Anne-Marie Duff-Smith."""
    task = _task("k129")
    ws = prepare(task)
    edit(ws / "initials.py", '    parts = name.split(" ")', '    parts = name.replace("-", " ", 1).split()')
    assert workspace_tests_pass(ws, "test_initials.py")
    fails(task, ws)


def test_initials_with_the_failing_tests_deleted_fails() -> None:
    task = _task("k129")
    ws = prepare(task)
    text = (ws / "test_initials.py").read_text()
    (ws / "test_initials.py").write_text(text[: text.index("def test_hyphenated_name")])
    assert workspace_tests_pass(ws, "test_initials.py")
    fails(task, ws)


TOTAL_TEST = """

def test_total(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("tea 1.25\\n")
    done = subprocess.run([sys.executable, "expenses.py", "--total", str(path)], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "total: 1.25"
"""


def _total_code(ws: Path, fmt: str = ":.2f") -> None:
    """--total read with argparse, the sum added up in the loop."""
    edit(
        ws / "expenses.py",
        '    args = parser.parse_args()\n    for name, amount in read_expenses(args.file):\n        print(f"{name}: {amount:.2f}")\n',
        '    parser.add_argument("--total", action="store_true")\n'
        "    args = parser.parse_args()\n"
        "    total = 0\n"
        "    for name, amount in read_expenses(args.file):\n"
        '        print(f"{name}: {amount:.2f}")\n'
        "        total += amount\n"
        "    if args.total:\n"
        f'        print(f"total: {{total{fmt}}}")\n',
    )


def test_a_total_added_up_in_the_loop_with_a_test_passes() -> None:
    task = _task("k130")
    ws = prepare(task)
    _total_code(ws)
    (ws / "test_expenses.py").write_text((ws / "test_expenses.py").read_text() + TOTAL_TEST)
    assert workspace_tests_pass(ws, "test_expenses.py")
    passes(task, ws)


def test_a_total_option_without_a_test_fails() -> None:
    task = _task("k130")
    ws = prepare(task)
    _total_code(ws)
    fails(task, ws)


def test_a_total_printed_unrounded_fails() -> None:
    """0.1 + 0.2 + 1.05 + 10 is not exactly 11.35 as a float."""
    task = _task("k130")
    ws = prepare(task)
    _total_code(ws, fmt="")
    (ws / "test_expenses.py").write_text(
        (ws / "test_expenses.py").read_text() + TOTAL_TEST.replace("1.25", "1.5")
    )
    assert workspace_tests_pass(ws, "test_expenses.py")
    fails(task, ws)


def test_a_total_test_replacing_an_old_one_fails() -> None:
    task = _task("k130")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_expenses.py").read_text()
    start, end = text.index("def test_prints_each_expense"), text.index("def test_total_option")
    (ws / "test_expenses.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_expenses.py")
    fails(task, ws)


ALBUMS = """import csv
import sys

albums = {}
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        minutes, seconds = map(int, row["length"].split(":"))
        tracks, total = albums.get(row["album"], (0, 0))
        albums[row["album"]] = (tracks + 1, total + 60 * minutes + seconds)
for album, (tracks, total) in sorted(albums.items()):
    word = "track" if tracks == 1 else "tracks"
    print(f"{album}: {tracks} {word}, {total // 60}:{total % 60:02d}")
"""


def test_album_lengths_in_a_dict_of_pairs_passes() -> None:
    task = _task("k131")
    ws = prepare(task)
    (ws / "albums.py").write_text(ALBUMS)
    passes(task, ws)


def test_album_lengths_without_padded_seconds_fails() -> None:
    task = _task("k131")
    ws = prepare(task)
    (ws / "albums.py").write_text(ALBUMS.replace("{total % 60:02d}", "{total % 60}"))
    fails(task, ws)


def test_album_lengths_in_the_file_order_fails() -> None:
    task = _task("k131")
    ws = prepare(task)
    (ws / "albums.py").write_text(ALBUMS.replace("sorted(albums.items())", "albums.items()"))
    fails(task, ws)


def test_album_lengths_split_on_commas_fails() -> None:
    """A title may hold a comma inside quotes: the csv module reads it, a plain split does not."""
    task = _task("k131")
    ws = prepare(task)
    (ws / "albums.py").write_text(
        ALBUMS.replace(
            "    for row in csv.DictReader(f):\n",
            '    next(f)\n    for line in f:\n        album, title, length = line.strip().split(",")\n'
            '        row = {"album": album, "length": length}\n',
        )
    )
    fails(task, ws)


def test_album_lengths_printing_the_example_fails() -> None:
    task = _task("k131")
    ws = prepare(task)
    (ws / "albums.py").write_text(
        'print("Blue: 3 tracks, 10:32")\nprint("Court and Spark: 1 track, 3:22")\nprint("Hejira: 3 tracks, 16:09")\n'
    )
    fails(task, ws)


def test_a_column_renamed_with_a_local_name_kept_passes() -> None:
    task = _task("k132")
    ws = prepare(task)
    edit(ws / "stock.csv", "item,qty,min_qty,shelf", "item,quantity,min_qty,shelf")
    edit(ws / "report.py", 'qty = int(row["qty"])', 'qty = int(row["quantity"])')
    edit(ws / "report.py", "int(row['qty'])", "int(row['quantity'])")
    passes(task, ws)


def test_a_column_renamed_with_a_plain_replace_everywhere_fails() -> None:
    """min_qty is another column: it must keep its name."""
    task = _task("k132")
    ws = prepare(task)
    for name in ("stock.csv", "report.py"):
        (ws / name).write_text((ws / name).read_text().replace("qty", "quantity"))
    fails(task, ws)


def test_a_column_renamed_only_in_the_script_fails() -> None:
    task = _task("k132")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "stock.csv", "item,quantity,", "item,qty,")
    fails(task, ws)


def test_a_column_read_under_both_names_fails() -> None:
    task = _task("k132")
    ws = prepare(task)
    edit(ws / "stock.csv", "item,qty,min_qty,shelf", "item,quantity,min_qty,shelf")
    edit(
        ws / "report.py",
        "    rows = load(path)\n",
        '    rows = load(path)\n    for row in rows:\n        row.setdefault("qty", row.get("quantity"))\n',
    )
    fails(task, ws)


def test_a_branch_rebased_with_cherry_picks_passes() -> None:
    task = _task("k133")
    ws = prepare(task)
    git(ws, "checkout", "-q", "-B", "vegan", "main")
    old = (ws / ".git" / "bench-vegan").read_text().strip()
    git(ws, "cherry-pick", f"{old}~1", old)
    passes(task, ws)


def test_a_branch_merged_instead_of_rebased_fails() -> None:
    task = _task("k133")
    ws = prepare(task)
    git(ws, "checkout", "-q", "vegan")
    git(ws, "merge", "-q", "--no-edit", "main")
    fails(task, ws)


def test_main_fast_forwarded_onto_the_rebased_branch_fails() -> None:
    task = _task("k133")
    ws = prepare(task)
    solve(task, ws)
    git(ws, "checkout", "-q", "main")
    git(ws, "merge", "-q", "--ff-only", "vegan")
    fails(task, ws)


def test_a_rebase_squashing_the_two_commits_fails() -> None:
    task = _task("k133")
    ws = prepare(task)
    solve(task, ws)
    git(ws, "reset", "-q", "--soft", "main")
    git(ws, "commit", "-qm", "Mark the vegan dishes")
    fails(task, ws)


def test_main_rebased_onto_the_branch_fails() -> None:
    task = _task("k133")
    ws = prepare(task)
    git(ws, "rebase", "-q", "vegan")
    fails(task, ws)


def test_a_tsconfig_rewritten_with_json_passes() -> None:
    task = _task("k134")
    ws = prepare(task)
    path = ws / "tsconfig.json"
    data = json.loads(path.read_text())
    options = data["compilerOptions"]
    options["target"] = "ES2022"
    options["lib"] = ["ES2022", "DOM"]
    del options["allowJs"]
    options["strict"] = True
    data["exclude"].append("dist")
    path.write_text(json.dumps(data, indent=4) + "\n")
    passes(task, ws)


def test_a_tsconfig_with_the_old_lib_fails() -> None:
    task = _task("k134")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "tsconfig.json", '"lib": ["ES2022", "DOM"]', '"lib": ["ES2017", "DOM"]')
    fails(task, ws)


def test_a_tsconfig_with_allow_js_turned_off_fails() -> None:
    task = _task("k134")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "tsconfig.json", '    "strict": true,', '    "strict": true,\n    "allowJs": false,')
    fails(task, ws)


def test_a_tsconfig_with_dist_put_first_fails() -> None:
    task = _task("k134")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "tsconfig.json", '["node_modules", "dist"]', '["dist", "node_modules"]')
    fails(task, ws)


def test_dates_moved_with_utils_importing_them_back_passes() -> None:
    """utils.py may re-export the date functions for old code, as long as it does not define them."""
    task = _task("k135")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "utils.py",
        '"""Text helpers for the events page."""\n',
        '"""Text helpers for the events page."""\n\nfrom dates import MONTHS, format_date, parse_date  # noqa: F401\n',
    )
    edit(ws / "app.py", "from dates import format_date, parse_date\n", "import dates\n")
    edit(ws / "app.py", "parse_date(", "dates.parse_date(")
    edit(ws / "app.py", "format_date(", "dates.format_date(")
    passes(task, ws)


def test_dates_copied_but_left_in_utils_fails() -> None:
    task = _task("k135")
    ws = prepare(task)
    solve(task, ws)
    (ws / "utils.py").write_text((ws / "utils.py").read_text() + "\n\n" + (ws / "dates.py").read_text())
    fails(task, ws)


def test_dates_moved_but_still_imported_from_utils_fails() -> None:
    task = _task("k135")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "utils.py",
        '"""Text helpers for the events page."""\n',
        '"""Text helpers for the events page."""\n\nfrom dates import format_date, parse_date  # noqa: F401\n',
    )
    edit(
        ws / "app.py",
        "from dates import format_date, parse_date\nfrom utils import slugify, truncate\n",
        "from utils import format_date, parse_date, slugify, truncate\n",
    )
    fails(task, ws)


def test_dates_moved_without_the_months_fails() -> None:
    """MONTHS left behind in utils.py: dates.py has to reach back for it."""
    task = _task("k135")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "dates.py").read_text()
    months = text[text.index("MONTHS = ") : text.index("\n", text.index("MONTHS = ")) + 1]
    (ws / "dates.py").write_text(text.replace(months, "from utils import MONTHS\n"))
    edit(
        ws / "utils.py",
        '"""Text helpers for the events page."""\n',
        '"""Text helpers for the events page."""\n\n' + months,
    )
    fails(task, ws)
