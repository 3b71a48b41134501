"""The eighteenth held-out suite (bench/heldout18: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout18` makes into bench/heldout18/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout18")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


LEAP_LINE = "    return year % 4 == 0 and year % 100 != 0\n"


def test_a_leap_year_with_nested_ifs_passes() -> None:
    task = _task("k143")
    ws = prepare(task)
    edit(
        ws / "calendar_tools.py",
        LEAP_LINE,
        "    if year % 400 == 0:\n        return True\n    if year % 100 == 0:\n        return False\n"
        "    return year % 4 == 0\n",
    )
    assert workspace_tests_pass(ws, "test_calendar_tools.py")
    passes(task, ws)


def test_a_leap_year_hard_coding_2000_fails() -> None:
    task = _task("k143")
    ws = prepare(task)
    edit(
        ws / "calendar_tools.py",
        LEAP_LINE,
        "    return year == 2000 or (year % 4 == 0 and year % 100 != 0)\n",
    )
    assert workspace_tests_pass(ws, "test_calendar_tools.py")
    fails(task, ws)


def test_a_leap_year_test_changed_to_the_wrong_answer_fails() -> None:
    task = _task("k143")
    ws = prepare(task)
    edit(ws / "test_calendar_tools.py", "    assert is_leap(2000)\n", "    assert not is_leap(2000)\n")
    edit(ws / "test_calendar_tools.py", "days_in_month(2000, 2) == 29", "days_in_month(2000, 2) == 28")
    edit(ws / "test_calendar_tools.py", "days_in_year(2000) == 366", "days_in_year(2000) == 365")
    assert workspace_tests_pass(ws, "test_calendar_tools.py")
    fails(task, ws)


MILES_TEST = """

def test_miles_flag(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("2026-01-01 16.09344\\n")
    done = subprocess.run([sys.executable, "runs.py", "--miles", str(path)], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["2026-01-01 10.00 mi", "total 10.00 mi"]
"""


def _miles_code(ws: Path, total: str = "sum(km for _, km in runs) / factor") -> None:
    edit(
        ws / "runs.py",
        '    parser.add_argument("file")\n',
        '    parser.add_argument("file")\n    parser.add_argument("--miles", action="store_true")\n',
    )
    edit(
        ws / "runs.py",
        "    runs = read_runs(args.file)\n",
        '    runs = read_runs(args.file)\n    factor, unit = (1.609344, "mi") if args.miles else (1, "km")\n',
    )
    edit(ws / "runs.py", '{km:.2f} km")', '{km / factor:.2f} {unit}")')
    edit(ws / "runs.py", '{sum(km for _, km in runs):.2f} km")', "{" + total + ':.2f} {unit}")')


def test_a_miles_flag_dividing_when_printing_passes() -> None:
    task = _task("k144")
    ws = prepare(task)
    _miles_code(ws)
    (ws / "test_runs.py").write_text((ws / "test_runs.py").read_text() + MILES_TEST)
    assert workspace_tests_pass(ws, "test_runs.py")
    passes(task, ws)


def test_a_miles_flag_leaving_the_total_in_kilometres_fails() -> None:
    task = _task("k144")
    ws = prepare(task)
    _miles_code(ws, total="sum(km for _, km in runs)")
    fails(task, ws)


def test_a_miles_flag_without_a_test_fails() -> None:
    task = _task("k144")
    ws = prepare(task)
    _miles_code(ws)
    fails(task, ws)


def test_a_miles_test_replacing_the_old_one_fails() -> None:
    task = _task("k144")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_runs.py").read_text()
    start, end = text.index("def test_prints_each_run_and_the_total"), text.index("def test_miles")
    (ws / "test_runs.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_runs.py")
    fails(task, ws)


DECADES = """import sys

groups = {}
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        if line.strip():
            title, author, year = line.strip().split(",")
            groups.setdefault(year[:3] + "0s", []).append(title)
for decade in sorted(groups):
    print(decade + ": " + ", ".join(groups[decade]))
"""


def test_decades_from_the_year_text_passes() -> None:
    task = _task("k145")
    ws = prepare(task)
    (ws / "decades.py").write_text(DECADES)
    passes(task, ws)


def test_decades_with_the_titles_sorted_fails() -> None:
    task = _task("k145")
    ws = prepare(task)
    (ws / "decades.py").write_text(
        DECADES.replace('", ".join(groups[decade])', '", ".join(sorted(groups[decade]))')
    )
    fails(task, ws)


def test_decades_rounding_the_year_fails() -> None:
    """round(1987, -1) is 1990: a book of 1987 is not of the 1990s."""
    task = _task("k145")
    ws = prepare(task)
    (ws / "decades.py").write_text(DECADES.replace('year[:3] + "0s"', 'f"{round(int(year), -1)}s"'))
    fails(task, ws)


def test_decades_printing_the_example_fails() -> None:
    task = _task("k145")
    ws = prepare(task)
    (ws / "decades.py").write_text(
        'print("1960s: Dune, Ariel, Solaris")\nprint("1980s: Beloved, Neuromancer")\nprint("2000s: The Road")\n'
    )
    fails(task, ws)


def test_a_module_rename_importing_the_functions_passes() -> None:
    task = _task("k146")
    ws = prepare(task)
    (ws / "fmt.py").rename(ws / "formatting.py")
    text = (ws / "invoice.py").read_text()
    text = text.replace("import fmt\n", "from formatting import money, padded, percent\n").replace("fmt.", "")
    (ws / "invoice.py").write_text(text)
    passes(task, ws)


def test_a_module_rename_importing_it_under_the_old_name_fails() -> None:
    task = _task("k146")
    ws = prepare(task)
    (ws / "fmt.py").rename(ws / "formatting.py")
    edit(ws / "invoice.py", "import fmt\n", "import formatting as fmt\n")
    fails(task, ws)


def test_a_module_copied_but_kept_under_the_old_name_fails() -> None:
    task = _task("k146")
    ws = prepare(task)
    solve(task, ws)
    (ws / "fmt.py").write_text((ws / "formatting.py").read_text())
    fails(task, ws)


def test_a_module_renamed_without_changing_invoice_fails() -> None:
    task = _task("k146")
    ws = prepare(task)
    (ws / "fmt.py").rename(ws / "formatting.py")
    fails(task, ws)


def test_an_undo_with_a_soft_reset_passes() -> None:
    task = _task("k147")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    passes(task, ws)


def test_an_undo_with_a_hard_reset_fails() -> None:
    task = _task("k147")
    ws = prepare(task)
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    fails(task, ws)


def test_an_undo_with_a_revert_commit_fails() -> None:
    task = _task("k147")
    ws = prepare(task)
    git(ws, "revert", "--no-edit", "HEAD")
    fails(task, ws)


def test_an_undo_stashing_the_changes_fails() -> None:
    task = _task("k147")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "stash", "-q")
    fails(task, ws)


def test_requirements_edited_by_hand_passes() -> None:
    task = _task("k148")
    ws = prepare(task)
    path = ws / "requirements.txt"
    text = (
        path.read_text()
        .replace("django==4.2.11", "django==5.0.6")
        .replace("pillow==10.2.0", "pillow==10.3.0")
    )
    text = text.replace("six==1.16.0\n", "").replace("whitenoise", "requests==2.32.3\nwhitenoise")
    path.write_text(text)
    passes(task, ws)


def test_requirements_with_requests_at_the_end_fails() -> None:
    task = _task("k148")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "requirements.txt"
    text = path.read_text().replace("requests==2.32.3\n", "")
    path.write_text(text + "requests==2.32.3\n")
    fails(task, ws)


def test_requirements_without_a_pinned_version_fails() -> None:
    task = _task("k148")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "requirements.txt", "requests==2.32.3", "requests>=2.32.3")
    fails(task, ws)


def test_requirements_without_the_comments_fails() -> None:
    task = _task("k148")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "requirements.txt"
    path.write_text("".join(line for line in path.read_text().splitlines(True) if not line.startswith("#")))
    fails(task, ws)


def test_parse_args_with_argv_defaulting_to_none_passes() -> None:
    task = _task("k149")
    ws = prepare(task)
    text = (ws / "countdown.py").read_text()
    text = text.replace("def main():\n    parser", "def parse_args(argv=None):\n    parser")
    text = text.replace(
        "    args = parser.parse_args()\n",
        "    return parser.parse_args(argv)\n\n\ndef main():\n    args = parse_args()\n",
    )
    (ws / "countdown.py").write_text(text)
    passes(task, ws)


def test_parse_args_ignoring_its_argv_fails() -> None:
    task = _task("k149")
    ws = prepare(task)
    text = (ws / "countdown.py").read_text()
    text = text.replace("def main():\n    parser", "def parse_args(argv=None):\n    parser")
    text = text.replace(
        "    args = parser.parse_args()\n",
        "    return parser.parse_args()\n\n\ndef main():\n    args = parse_args()\n",
    )
    (ws / "countdown.py").write_text(text)
    fails(task, ws)


def test_parse_args_added_but_main_still_parsing_itself_fails() -> None:
    task = _task("k149")
    ws = prepare(task)
    text = (ws / "countdown.py").read_text()
    start, end = text.index("    parser = argparse"), text.index("    args = parser.parse_args()\n")
    helper = "def parse_args(argv):\n" + text[start:end] + "    return parser.parse_args(argv)\n\n\n"
    (ws / "countdown.py").write_text(text.replace("def main():", helper + "def main():"))
    fails(task, ws)
