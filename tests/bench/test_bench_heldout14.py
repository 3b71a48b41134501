"""The fourteenth held-out suite (bench/heldout14: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout14` makes into bench/heldout14/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout14")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


AGO = """def ago(seconds):
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    for count, name in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if count:
            return f"{count} {name} ago" if count == 1 else f"{count} {name}s ago"
    return "just now"
"""


def test_time_ago_rewritten_with_whole_units_passes() -> None:
    task = _task("k115")
    ws = prepare(task)
    text = (ws / "ago.py").read_text()
    start, end = text.index("def ago"), text.index("\n\nif __name__")
    (ws / "ago.py").write_text(text[:start] + AGO + text[end:])
    assert workspace_tests_pass(ws, "test_ago.py")
    passes(task, ws)


def test_time_ago_hard_coded_for_the_tested_times_fails() -> None:
    """Right for the times the tests name, and for no other exact unit."""
    task = _task("k115")
    ws = prepare(task)
    edit(
        ws / "ago.py",
        "    for name, size in UNITS:\n",
        "    if seconds in (60, 100):\n"
        '        return "1 minute ago"\n'
        "    if seconds in (86400, 30 * 3600):\n"
        '        return "1 day ago"\n'
        "    for name, size in UNITS:\n",
    )
    assert workspace_tests_pass(ws, "test_ago.py")
    fails(task, ws)


def test_time_ago_with_only_the_boundary_fixed_fails() -> None:
    task = _task("k115")
    ws = prepare(task)
    edit(ws / "ago.py", "if seconds > size:", "if seconds >= size:")
    assert not workspace_tests_pass(ws, "test_ago.py")
    fails(task, ws)


def test_time_ago_with_the_failing_tests_edited_fails() -> None:
    task = _task("k115")
    ws = prepare(task)
    edit(ws / "ago.py", 'return f"{count} {name}s ago"', "return f\"{count} {name}{'s' * (count != 1)} ago\"")
    text = (ws / "test_ago.py").read_text()
    text = text.replace('    assert ago(60) == "1 minute ago"\n', "")
    text = text.replace('    assert ago(86400) == "1 day ago"\n', "")
    (ws / "test_ago.py").write_text(text)
    assert workspace_tests_pass(ws, "test_ago.py")
    fails(task, ws)


OUTPUT_TEST = """

def test_output_option(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("A Title\\n")
    out = tmp_path / "out.txt"
    subprocess.run([sys.executable, "slugs.py", "-o", str(out), str(path)], check=True)
    assert out.read_text() == "a-title\\n"
"""


def _output_code(
    ws: Path, message: str = 'f"wrote {len(found)} slugs to {args.output}"', echo: bool = False
) -> None:
    """-o read with argparse, the slugs written with print(file=...)."""
    edit(
        ws / "slugs.py",
        "    args = parser.parse_args()\n    for line in slugs(args.file):\n        print(line)\n",
        '    parser.add_argument("--output", "-o")\n'
        "    args = parser.parse_args()\n"
        "    found = slugs(args.file)\n"
        "    if args.output is None or " + ("True" if echo else "False") + ":\n"
        "        for line in found:\n"
        "            print(line)\n"
        "    if args.output is not None:\n"
        '        with open(args.output, "w") as out:\n'
        "            for line in found:\n"
        "                print(line, file=out)\n"
        f"        print({message})\n",
    )


def test_an_output_option_printing_to_the_file_with_a_test_passes() -> None:
    task = _task("k116")
    ws = prepare(task)
    _output_code(ws)
    (ws / "test_slugs.py").write_text((ws / "test_slugs.py").read_text() + OUTPUT_TEST)
    assert workspace_tests_pass(ws, "test_slugs.py")
    passes(task, ws)


def test_an_output_option_without_a_test_fails() -> None:
    task = _task("k116")
    ws = prepare(task)
    _output_code(ws)
    fails(task, ws)


def test_an_output_option_that_still_prints_the_slugs_fails() -> None:
    task = _task("k116")
    ws = prepare(task)
    _output_code(ws, echo=True)
    (ws / "test_slugs.py").write_text((ws / "test_slugs.py").read_text() + OUTPUT_TEST)
    fails(task, ws)


def test_an_output_option_with_the_example_message_fails() -> None:
    task = _task("k116")
    ws = prepare(task)
    _output_code(ws, message='"wrote 3 slugs to out.txt"')
    (ws / "test_slugs.py").write_text((ws / "test_slugs.py").read_text() + OUTPUT_TEST)
    fails(task, ws)


def test_an_output_test_replacing_an_old_one_fails() -> None:
    task = _task("k116")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_slugs.py").read_text()
    start, end = text.index("def test_prints_one_slug_a_line"), text.index("def test_output_option")
    (ws / "test_slugs.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_slugs.py")
    fails(task, ws)


BIRTHDAYS = """import sys
from datetime import date

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

people = []
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        if line.strip():
            name, born = line.strip().split(",")
            day = date.fromisoformat(born)
            people.append((day.month, day.day, name))
people.sort()
for month in range(1, 13):
    found = [f"{name} ({day})" for m, day, name in people if m == month]
    if found:
        print(MONTHS[month - 1] + ": " + ", ".join(found))
"""


def test_birthdays_sorted_as_month_day_name_passes() -> None:
    task = _task("k117")
    ws = prepare(task)
    (ws / "birthdays.py").write_text(BIRTHDAYS)
    passes(task, ws)


def test_birthdays_sorted_by_name_within_a_month_fails() -> None:
    task = _task("k117")
    ws = prepare(task)
    (ws / "birthdays.py").write_text(
        BIRTHDAYS.replace("people.sort()", "people.sort(key=lambda p: (p[0], p[2]))")
    )
    fails(task, ws)


def test_birthdays_with_the_day_zero_padded_fails() -> None:
    task = _task("k117")
    ws = prepare(task)
    (ws / "birthdays.py").write_text(BIRTHDAYS.replace("({day})", "({day:02d})"))
    fails(task, ws)


def test_birthdays_printing_the_example_fails() -> None:
    task = _task("k117")
    ws = prepare(task)
    (ws / "birthdays.py").write_text(
        'print("March: Joy (2), Ana (14), Ben (30)")\nprint("April: Tom (4), Ravi (14)")\nprint("November: Lena (2)")\n'
    )
    fails(task, ws)


def test_a_setting_renamed_with_a_fallback_passes() -> None:
    task = _task("k118")
    ws = prepare(task)
    edit(ws / "config.json", '"max_items": 4', '"page_size": 4')
    text = (ws / "app.py").read_text().replace('config["max_items"]', 'config.get("page_size", 5)')
    (ws / "app.py").write_text(text)
    passes(task, ws)


def test_a_setting_renamed_only_in_the_config_fails() -> None:
    task = _task("k118")
    ws = prepare(task)
    edit(ws / "config.json", '"max_items": 4', '"page_size": 4')
    fails(task, ws)


def test_a_setting_renamed_with_a_plain_replace_everywhere_fails() -> None:
    """max_items_in_search is another setting: it must keep its name."""
    task = _task("k118")
    ws = prepare(task)
    for name in ("config.json", "app.py"):
        (ws / name).write_text((ws / name).read_text().replace("max_items", "page_size"))
    fails(task, ws)


def test_a_setting_read_from_the_old_name_first_fails() -> None:
    task = _task("k118")
    ws = prepare(task)
    edit(ws / "config.json", '"max_items": 4', '"page_size": 4')
    text = (
        (ws / "app.py")
        .read_text()
        .replace('config["max_items"]', 'config.get("max_" "items") or config["page_size"]')
    )
    (ws / "app.py").write_text(text)
    fails(task, ws)


def test_a_commit_moved_by_checking_out_a_new_branch_passes() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "checkout", "-q", "-b", "export")
    git(ws, "branch", "-f", "main", "HEAD~1")
    passes(task, ws)


def test_a_commit_moved_and_main_checked_out_again_passes() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "checkout", "-q", "-b", "export")
    git(ws, "checkout", "-q", "main")
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    passes(task, ws)


def test_a_branch_made_with_main_left_as_it_is_fails() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "branch", "export")
    fails(task, ws)


def test_a_commit_undone_softly_with_its_changes_left_staged_fails() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "branch", "export")
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    fails(task, ws)


def test_a_commit_made_again_on_the_branch_passes() -> None:
    """Undone softly and committed again on the new branch, with the same message and files."""
    task = _task("k119")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "checkout", "-q", "-b", "export")
    git(ws, "commit", "-qm", "Add export button")
    git(ws, "checkout", "-q", "main")
    passes(task, ws)


def test_a_commit_made_again_on_the_branch_with_another_message_fails() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "checkout", "-q", "-b", "export")
    git(ws, "commit", "-qm", "Export")
    fails(task, ws)


def test_a_commit_moved_without_its_new_file_fails() -> None:
    task = _task("k119")
    ws = prepare(task)
    git(ws, "reset", "-q", "--soft", "HEAD~1")
    git(ws, "checkout", "-q", "-b", "export")
    git(ws, "reset", "-q", "export.py")
    git(ws, "commit", "-qm", "Add export button")
    (ws / "export.py").unlink()
    fails(task, ws)


def test_an_editorconfig_edited_with_other_spacing_passes() -> None:
    task = _task("k120")
    ws = prepare(task)
    path = ws / ".editorconfig"
    edit(path, "indent_size = 4\nmax_line_length = 88\n", "indent_size = 4\n")
    edit(
        path,
        "[*.{js,json}]\nindent_style = space\nindent_size = 4\n",
        "[*.{js,json}]\nindent_style = space\nindent_size=2\n",
    )
    path.write_text(path.read_text() + "[Makefile]\nindent_style=tab")
    passes(task, ws)


def test_an_editorconfig_with_every_indent_size_two_fails() -> None:
    task = _task("k120")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".editorconfig"
    path.write_text(path.read_text().replace("indent_size = 4", "indent_size = 2"))
    fails(task, ws)


def test_an_editorconfig_keeping_max_line_length_fails() -> None:
    task = _task("k120")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / ".editorconfig", "indent_size = 4\n", "indent_size = 4\nmax_line_length = 88\n")
    fails(task, ws)


def test_an_editorconfig_without_its_comment_fails() -> None:
    task = _task("k120")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / ".editorconfig", "# Markdown uses two trailing spaces for a line break\n", "")
    fails(task, ws)


def test_an_editorconfig_with_the_makefile_section_first_fails() -> None:
    task = _task("k120")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".editorconfig"
    text = path.read_text().replace("\n[Makefile]\nindent_style = tab\n", "")
    path.write_text(text.replace("[*]\n", "[Makefile]\nindent_style = tab\n\n[*]\n"))
    fails(task, ws)


REPORT = '''"""Print the month's sales per shop: python3 report.py sales.csv"""

import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f)]


def render(rows):
    shops = {}
    for row in rows:
        total, count = shops.get(row["shop"], (0.0, 0))
        shops[row["shop"]] = (total + float(row["amount"]), count + 1)
    text = "Sales by shop\\n"
    for shop, (total, count) in sorted(shops.items(), key=lambda item: (-item[1][0], item[0])):
        text += f"{shop}: {total:.2f} ({count} sale{'' if count == 1 else 's'})\\n"
    text += f"total: {sum(total for total, _ in shops.values()):.2f}\\n"
    return text


def main():
    print(render(load(sys.argv[1])), end="")


if __name__ == "__main__":
    main()
'''


def test_a_report_rendered_line_by_line_passes() -> None:
    task = _task("k121")
    ws = prepare(task)
    (ws / "report.py").write_text(REPORT)
    passes(task, ws)


def test_a_report_whose_render_prints_fails() -> None:
    task = _task("k121")
    ws = prepare(task)
    (ws / "report.py").write_text(
        REPORT.replace("    return text\n", "    print(text, end='')\n").replace(
            '    print(render(load(sys.argv[1])), end="")', "    render(load(sys.argv[1]))"
        )
    )
    assert subprocess.run(["python3", "report.py", "sales.csv"], cwd=ws, capture_output=True).returncode == 0
    fails(task, ws)


def test_a_report_whose_main_keeps_its_own_code_fails() -> None:
    """load and render are there, but main() does not use them."""
    task = _task("k121")
    ws = prepare(task)
    original = (ws / "report.py").read_text()
    functions = REPORT[REPORT.index("def load") : REPORT.index("def main")]
    (ws / "report.py").write_text(original.replace("def main():", functions + "def main():"))
    fails(task, ws)


def test_a_report_whose_load_gives_the_totals_fails() -> None:
    task = _task("k121")
    ws = prepare(task)
    (ws / "report.py").write_text(
        REPORT.replace(
            "        return [row for row in csv.DictReader(f)]\n",
            '        return [{"shop": row["shop"], "amount": float(row["amount"])} for row in csv.DictReader(f)]\n',
        )
    )
    fails(task, ws)
