"""The twentieth held-out suite (bench/heldout20: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout20` makes into bench/heldout20/exercises): each check fails on the
untouched workspace and passes after the reference solution, and what is particular to a task's
check is shown by near-misses that must fail and other honest solutions that must pass. These tasks
are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bench.suite_checks import (
    BENCH,
    GIT_ID,
    edit,
    fails,
    find_task,
    git,
    passes,
    passes_with_tests_rewritten,
    solve,
    suite_tasks,
    untouched_and_solved,
    workspace_tests_pass,
)
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout20")
EVERY = suite_tasks("heldout20")
EXERCISES = suite_tasks("heldout20", exercises_only=True)


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_the_suite_has_its_twelve_tasks_and_three_exercises() -> None:
    assert [t.name for t in TASKS] == [
        "k157_fix_watering_dates",
        "k158_sort_option",
        "k159_game_standings",
        "k160_rename_weekly_litres",
        "k161_merge_waterfall_branch",
        "k162_edit_ci_workflow",
        "k163_move_scheduling",
        "k164_fix_slugify",
        "k165_gitignore_build",
        "k166_markdown_toc",
        "k167_card_dataclass",
        "k168_edit_hugo_config",
    ]
    assert sorted(t.name for _, t in EXERCISES) == ["ex_is_nested", "ex_minPath", "ex_tri"]
    for task in TASKS:
        assert (task.folder / "solution.sh").is_file() and (task.folder / "template").is_dir()


@pytest.mark.parametrize(("suite", "task"), EVERY, ids=[t.name for _, t in EVERY])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


@pytest.mark.parametrize(("suite", "task"), EXERCISES, ids=[t.name for _, t in EXERCISES])
def test_an_exercise_with_its_tests_rewritten_fails(suite: str, task: BenchTask) -> None:
    assert not passes_with_tests_rewritten(task)


def _replace_function(path: Path, name: str, code: str) -> None:
    """Put `code` in place of the top-level function `name` in the file at `path`."""
    text = path.read_text()
    start = text.index(f"def {name}(")
    end = text.find("\n\n\ndef ", start)
    path.write_text(text[:start] + code.rstrip("\n") + ("" if end < 0 else text[end:]))


WATERING = '''def next_watering(last, every):
    """The date (YYYY-MM-DD) `every` days after `last` (YYYY-MM-DD)."""
    year, month, day = (int(part) for part in last.split("-"))
    day += every
    while True:
        length = DAYS_IN_MONTH[month - 1]
        if month == 2 and LEAP(year):
            length = 29
        if day <= length:
            return f"{year}-{month:02d}-{day:02d}"
        day -= length
        month += 1
        if month == 13:
            year, month = year + 1, 1
'''


def test_watering_dates_counted_month_by_month_passes() -> None:
    task = _task("k157")
    ws = prepare(task)
    leap = "LEAP = lambda y: y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)\n\n\n"
    _replace_function(ws / "watering.py", "next_watering", leap + WATERING)
    assert workspace_tests_pass(ws, "test_watering.py")
    passes(task, ws)


def test_watering_dates_with_every_fourth_year_a_leap_year_fails() -> None:
    """2100 is not a leap year."""
    task = _task("k157")
    ws = prepare(task)
    _replace_function(ws / "watering.py", "next_watering", "LEAP = lambda y: y % 4 == 0\n\n\n" + WATERING)
    assert workspace_tests_pass(ws, "test_watering.py")
    fails(task, ws)


def test_watering_dates_with_the_failing_tests_removed_fails() -> None:
    task = _task("k157")
    ws = prepare(task)
    text = (ws / "test_watering.py").read_text()
    start, end = text.index("def test_into_the_new_year"), text.index("def test_schedule")
    (ws / "test_watering.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_watering.py")
    fails(task, ws)


SORT_TEST = """

def test_sort_by_name():
    assert run("--sort", "name", "birds.csv") == [
        "blue tit: 7", "chaffinch: 3", "goldfinch: 6", "magpie: 2", "robin: 4", "wren: 1"
    ]
"""


def _sort_option(ws: Path, argument: str) -> None:
    edit(
        ws / "sightings.py",
        '    parser.add_argument("file")\n',
        f'    parser.add_argument("file")\n{argument}',
    )
    edit(
        ws / "sightings.py",
        "    for species, count in totals(args.file).most_common():\n",
        "    rows = totals(args.file).most_common()\n"
        '    if args.sort == "name":\n'
        "        rows = sorted(rows, key=lambda row: row[0])\n"
        "    for species, count in rows:\n",
    )


def test_a_sort_option_checked_by_hand_passes() -> None:
    task = _task("k158")
    ws = prepare(task)
    _sort_option(
        ws,
        '    parser.add_argument("--sort", default="count")\n',
    )
    edit(
        ws / "sightings.py",
        "    args = parser.parse_args()\n",
        '    args = parser.parse_args()\n    if args.sort not in ("count", "name"):\n'
        '        parser.error("--sort is count or name")\n',
    )
    (ws / "test_sightings.py").write_text((ws / "test_sightings.py").read_text() + SORT_TEST)
    passes(task, ws)


def test_a_sort_option_taking_any_value_fails() -> None:
    task = _task("k158")
    ws = prepare(task)
    _sort_option(ws, '    parser.add_argument("--sort", default="count")\n')
    (ws / "test_sightings.py").write_text((ws / "test_sightings.py").read_text() + SORT_TEST)
    fails(task, ws)


def test_a_sort_option_without_a_test_fails() -> None:
    task = _task("k158")
    ws = prepare(task)
    _sort_option(ws, '    parser.add_argument("--sort", choices=["count", "name"], default="count")\n')
    fails(task, ws)


def test_a_sort_test_that_only_checks_the_exit_code_fails() -> None:
    """A sightings.py that ignores --sort would pass it."""
    task = _task("k158")
    ws = prepare(task)
    _sort_option(ws, '    parser.add_argument("--sort", choices=["count", "name"], default="count")\n')
    test = (
        "\n\ndef test_sort_by_name():\n"
        '    done = subprocess.run([sys.executable, "sightings.py", "--sort", "name", "birds.csv"])\n'
        "    assert done.returncode == 0\n"
    )
    (ws / "test_sightings.py").write_text((ws / "test_sightings.py").read_text() + test)
    assert workspace_tests_pass(ws, "test_sightings.py")
    fails(task, ws)


STANDINGS = """import sys
from collections import Counter

played, won = Counter(), Counter()
for line in open(sys.argv[1]):
    if line.strip() == "" or line.startswith("#"):
        continue
    fields = [field.strip() for field in line.split("|")]
    for name in fields[2].split(","):
        played[name.strip()] += 1
    won[fields[3]] += 1
order = sorted(played, key=lambda name: (-won[name], name))
for name in order:
    w, g = won[name], played[name]
    print(f"{name}: {w} {'win' if w == 1 else 'wins'} in {g} {'game' if g == 1 else 'games'}")
"""


def test_standings_with_counters_passes() -> None:
    task = _task("k159")
    ws = prepare(task)
    (ws / "standings.py").write_text(STANDINGS)
    passes(task, ws)


def test_standings_always_in_the_plural_fails() -> None:
    task = _task("k159")
    ws = prepare(task)
    (ws / "standings.py").write_text(
        STANDINGS.replace("'win' if w == 1 else 'wins'", "'wins'").replace(
            "'game' if g == 1 else 'games'", "'games'"
        )
    )
    fails(task, ws)


def test_standings_with_ties_in_the_order_of_the_file_fails() -> None:
    task = _task("k159")
    ws = prepare(task)
    text = STANDINGS.replace(
        "sorted(played, key=lambda name: (-won[name], name))", "sorted(played, key=lambda name: -won[name])"
    )
    (ws / "standings.py").write_text(text)
    fails(task, ws)


def test_standings_with_names_not_stripped_fails() -> None:
    """'Yan,Zoe , Xia' names Zoe, not 'Zoe '."""
    task = _task("k159")
    ws = prepare(task)
    (ws / "standings.py").write_text(
        STANDINGS.replace('fields[2].split(",")', 'fields[2].split(", ")').replace("name.strip()", "name")
    )
    fails(task, ws)


def _rename_litres(ws: Path) -> None:
    for name in ("garden.py", "planner.py", "report.py", "test_garden.py"):
        path = ws / name
        path.write_text(path.read_text().replace("water_needed(", "weekly_litres("))


def test_a_litres_rename_with_the_method_passed_to_sum_passes() -> None:
    task = _task("k160")
    ws = prepare(task)
    _rename_litres(ws)
    edit(
        ws / "planner.py",
        "sum(bed.weekly_litres() for bed in beds)",
        "sum(map(lambda b: b.weekly_litres(), beds))",
    )
    passes(task, ws)


def test_a_litres_rename_keeping_the_old_name_as_an_alias_fails() -> None:
    task = _task("k160")
    ws = prepare(task)
    _rename_litres(ws)
    edit(ws / "garden.py", "\n\nBEDS = [", "\n    water_needed = weekly_litres\n\n\nBEDS = [")
    fails(task, ws)


def test_a_litres_rename_that_misses_the_tests_fails() -> None:
    task = _task("k160")
    ws = prepare(task)
    for name in ("garden.py", "planner.py", "report.py"):
        path = ws / name
        path.write_text(path.read_text().replace("water_needed(", "weekly_litres("))
    fails(task, ws)


def test_a_litres_rename_that_rewords_the_report_fails() -> None:
    task = _task("k160")
    ws = prepare(task)
    _rename_litres(ws)
    edit(ws / "report.py", "water needed {litres}", "weekly litres {litres}")
    fails(task, ws)


def _merge(ws: Path, *args: str) -> None:
    """A merge that may stop at the conflict."""
    subprocess.run(
        ["git", "merge", "-q", *args, "waterfall"],
        cwd=ws,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", **GIT_ID},
    )


TRAILS = "# Day hikes near the cabin\n\n- Lake loop, 5 km, easy\n- Pine ridge, 9 km, moderate\n"
SUMMIT, WATERFALL = "- Summit trail, 14 km, hard\n", "- Waterfall path, 7 km, moderate\n"


def test_a_merge_resolved_by_hand_with_a_message_passes() -> None:
    task = _task("k161")
    ws = prepare(task)
    _merge(ws)
    (ws / "trails.md").write_text(TRAILS + SUMMIT + WATERFALL)
    git(ws, "commit", "-qam", "Merge the waterfall path")
    passes(task, ws)


def test_a_merge_with_the_trails_the_other_way_round_fails() -> None:
    task = _task("k161")
    ws = prepare(task)
    _merge(ws)
    (ws / "trails.md").write_text(TRAILS + WATERFALL + SUMMIT)
    git(ws, "commit", "-qam", "Merge the waterfall path")
    fails(task, ws)


def test_a_merge_keeping_only_mains_side_fails() -> None:
    task = _task("k161")
    ws = prepare(task)
    _merge(ws, "-X", "ours")
    assert (ws / "trails.md").read_text() == TRAILS + SUMMIT
    fails(task, ws)


def test_a_squash_merge_fails() -> None:
    task = _task("k161")
    ws = prepare(task)
    _merge(ws, "--squash")
    (ws / "trails.md").write_text(TRAILS + SUMMIT + WATERFALL)
    git(ws, "commit", "-qam", "Add the waterfall path")
    fails(task, ws)


def test_a_merge_resolved_but_not_committed_fails() -> None:
    task = _task("k161")
    ws = prepare(task)
    _merge(ws)
    (ws / "trails.md").write_text(TRAILS + SUMMIT + WATERFALL)
    git(ws, "add", "trails.md")
    fails(task, ws)


def test_a_workflow_with_single_quotes_and_no_blank_lines_passes() -> None:
    task = _task("k162")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".github/workflows/tests.yml"
    text = path.read_text().replace('"', "'").replace("[main, release]", "[ main, 'release' ]")
    path.write_text(text.replace("\n\n", "\n"))
    passes(task, ws)


def test_a_workflow_with_the_versions_unquoted_fails() -> None:
    """YAML reads 3.10 as 3.1."""
    task = _task("k162")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / ".github/workflows/tests.yml", '["3.10", "3.11", "3.12", "3.13"]', "[3.10, 3.11, 3.12, 3.13]")
    fails(task, ws)


def test_a_workflow_without_the_lint_comment_fails() -> None:
    task = _task("k162")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / ".github/workflows/tests.yml", "      # Lint before testing: it fails sooner.\n", "")
    fails(task, ws)


def test_a_workflow_with_flake8_left_in_the_requirements_fails() -> None:
    task = _task("k162")
    ws = prepare(task)
    solve(task, ws)
    (ws / "requirements.txt").write_text("pytest\nflake8\nruff\n")
    fails(task, ws)


def test_a_workflow_running_on_release_branches_only_fails() -> None:
    task = _task("k162")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / ".github/workflows/tests.yml", "[main, release]", "[release]")
    fails(task, ws)


def _split_flashcards(ws: Path) -> tuple[str, str]:
    """flashcards.py's text before the moved functions, and from main() on; the functions go to
    scheduling.py."""
    text = (ws / "flashcards.py").read_text()
    start, end = text.index("def next_interval"), text.index("def main():")
    moved = text[start:end].rstrip() + "\n"
    (ws / "scheduling.py").write_text("from datetime import date, timedelta\n\n\n" + moved)
    return text[:start], text[end:]


def test_scheduling_imported_as_a_module_passes() -> None:
    task = _task("k163")
    ws = prepare(task)
    head, tail = _split_flashcards(ws)
    head = head.replace(
        "from datetime import date, timedelta\n", "from datetime import date\n\nimport scheduling\n"
    )
    tail = re.sub(r"\b(due_cards|due_date|next_interval)\(", r"scheduling.\1(", tail)
    (ws / "flashcards.py").write_text(head + tail)
    text = (ws / "test_flashcards.py").read_text()
    text = text.replace("from flashcards import due_cards, due_date, next_interval", "import scheduling")
    text = re.sub(r"\b(due_cards|due_date|next_interval)\(", r"scheduling.\1(", text)
    (ws / "test_flashcards.py").write_text(text)
    passes(task, ws)


def test_scheduling_copied_but_still_defined_in_flashcards_fails() -> None:
    task = _task("k163")
    ws = prepare(task)
    _split_flashcards(ws)
    edit(ws / "test_flashcards.py", "from flashcards import", "from scheduling import")
    fails(task, ws)


def test_scheduling_importing_them_from_flashcards_fails() -> None:
    task = _task("k163")
    ws = prepare(task)
    (ws / "scheduling.py").write_text("from flashcards import due_cards, due_date, next_interval\n")
    edit(ws / "test_flashcards.py", "from flashcards import", "from scheduling import")
    fails(task, ws)


def test_scheduling_with_the_tests_left_on_flashcards_fails() -> None:
    task = _task("k163")
    ws = prepare(task)
    head, tail = _split_flashcards(ws)
    head = head.replace(
        "from datetime import date, timedelta\n",
        "from datetime import date\n\nfrom scheduling import due_cards, due_date, next_interval\n",
    )
    (ws / "flashcards.py").write_text(head + tail)
    assert workspace_tests_pass(ws, "test_flashcards.py")
    fails(task, ws)


SLUG_LINE = '    slug = re.sub(r"[^a-z0-9]", "-", slug)\n'
UNIQUE_LINE = '        slug = f"{slugify(title)}{n}"\n'


def test_slugify_by_splitting_into_words_passes() -> None:
    task = _task("k164")
    ws = prepare(task)
    edit(ws / "slug.py", SLUG_LINE, '    slug = "-".join(re.findall(r"[a-z0-9]+", slug))\n')
    edit(ws / "slug.py", UNIQUE_LINE, '        slug = slugify(title) + "-" + str(n)\n')
    assert workspace_tests_pass(ws, "test_slug.py")
    passes(task, ws)


def test_slugify_collapsing_only_the_characters_in_the_tests_fails() -> None:
    task = _task("k164")
    ws = prepare(task)
    edit(ws / "slug.py", SLUG_LINE, '    slug = re.sub(r"[ ,!-]+", "-", slug)\n')
    edit(ws / "slug.py", UNIQUE_LINE, '        slug = f"{slugify(title)}-{n}"\n')
    assert workspace_tests_pass(ws, "test_slug.py")
    fails(task, ws)


def test_slugify_with_the_tests_changed_fails() -> None:
    task = _task("k164")
    ws = prepare(task)
    edit(ws / "slug.py", SLUG_LINE, '    slug = re.sub(r"[^a-z0-9]+", "-", slug)\n')
    edit(ws / "test_slug.py", "my-trip-", "my-trip")
    assert workspace_tests_pass(ws, "test_slug.py")
    fails(task, ws)


def test_a_gitignore_with_rooted_patterns_and_add_all_passes() -> None:
    task = _task("k165")
    ws = prepare(task)
    (ws / ".gitignore").write_text(
        "# Python\n**/__pycache__/\n\n# logs\n*.log\n\n/build/*\n!/build/README.md\n"
    )
    git(ws, "rm", "-q", "--cached", "app.log")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "Stop tracking generated files")
    passes(task, ws)


def test_a_gitignore_ignoring_the_whole_build_folder_fails() -> None:
    """`build/` ignores the folder itself: no `!` rule can bring its README back."""
    task = _task("k165")
    ws = prepare(task)
    (ws / ".gitignore").write_text("__pycache__/\n*.log\nbuild/\n!build/README.md\n")
    git(ws, "rm", "-q", "--cached", "app.log")
    git(ws, "add", "-f", ".gitignore", "build/README.md")
    git(ws, "commit", "-qm", "Ignore generated files")
    fails(task, ws)


def test_a_gitignore_commit_deleting_app_log_fails() -> None:
    task = _task("k165")
    ws = prepare(task)
    solve(task, ws)
    (ws / "app.log").unlink()
    fails(task, ws)


def test_a_gitignore_in_two_commits_fails() -> None:
    task = _task("k165")
    ws = prepare(task)
    (ws / ".gitignore").write_text("__pycache__/\n*.log\nbuild/*\n!build/README.md\n")
    git(ws, "rm", "-q", "--cached", "app.log")
    git(ws, "commit", "-qm", "Stop tracking app.log")
    git(ws, "add", ".gitignore", "build/README.md")
    git(ws, "commit", "-qm", "Ignore generated files")
    fails(task, ws)


TOC = """import re
import sys

counts = {}
fenced = False
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("```"):
        fenced = not fenced
    elif not fenced and (line.startswith("## ") or line.startswith("### ")):
        hashes, _, title = line.partition(" ")
        title = title.strip()
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        n = counts.get(anchor, 0)
        counts[anchor] = n + 1
        suffix = f"-{n}" if n else ""
        print(("  " if hashes == "###" else "") + f"- [{title}](#{anchor}{suffix})")
"""


def test_a_toc_from_startswith_passes() -> None:
    task = _task("k166")
    ws = prepare(task)
    (ws / "toc.py").write_text(TOC)
    passes(task, ws)


def test_a_toc_reading_headings_in_code_blocks_fails() -> None:
    task = _task("k166")
    ws = prepare(task)
    (ws / "toc.py").write_text(TOC.replace("fenced = not fenced", "pass"))
    fails(task, ws)


def test_a_toc_without_numbered_repeats_fails() -> None:
    task = _task("k166")
    ws = prepare(task)
    (ws / "toc.py").write_text(TOC.replace('f"-{n}" if n else ""', '""'))
    fails(task, ws)


def test_a_toc_printing_the_example_fails() -> None:
    task = _task("k166")
    ws = prepare(task)
    (ws / "toc.py").write_text('print(open("guide_toc.txt").read(), end="")\n')
    fails(task, ws)


def test_a_card_dataclass_built_with_keywords_passes() -> None:
    task = _task("k167")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "board.py", "    tags: list = field(", "    tags: list[str] = field(")
    edit(ws / "test_board.py", 'Card("a", points=3)', 'Card(title="a", points=3)')
    edit(ws / "test_board.py", 'Card("b", "doing", 2)', 'Card(title="b", column="doing", points=2)')
    passes(task, ws)


def test_a_card_dataclass_with_no_tags_by_default_fails() -> None:
    task = _task("k167")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "board.py", "    tags: list = field(default_factory=list)", "    tags: list | None = None")
    edit(ws / "board.py", "if tag in card.tags]", "if tag in (card.tags or [])]")
    edit(ws / "test_board.py", "card.tags == []", "not card.tags")
    assert workspace_tests_pass(ws, "test_board.py")
    fails(task, ws)


def test_a_card_dataclass_keeping_make_card_fails() -> None:
    task = _task("k167")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "board.py",
        "\n\ndef move(",
        '\n\ndef make_card(title, column="todo", points=1, tags=None):\n'
        "    return Card(title, column, points, tags or [])\n\n\ndef move(",
    )
    fails(task, ws)


def test_a_card_class_that_is_no_dataclass_fails() -> None:
    task = _task("k167")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "board.py",
        """@dataclass
class Card:
    title: str
    column: str = "todo"
    points: int = 1
    tags: list = field(default_factory=list)
""",
        """class Card:
    def __init__(self, title, column="todo", points=1, tags=None):
        self.title, self.column, self.points, self.tags = title, column, points, tags or []
""",
    )
    assert workspace_tests_pass(ws, "test_board.py")
    fails(task, ws)


def test_a_hugo_config_with_single_quotes_and_no_indent_passes() -> None:
    task = _task("k168")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "hugo.toml"
    path.write_text(re.sub(r"(?m)^  ", "", path.read_text()).replace('"', "'"))
    passes(task, ws)


def test_a_hugo_config_with_plots_added_at_the_end_fails() -> None:
    task = _task("k168")
    ws = prepare(task)
    solve(task, ws)
    path = ws / "hugo.toml"
    plots = '[[menu.main]]\n  name = "Plots"\n  url = "/plots/"\n  weight = 2\n\n'
    edit(path, plots, "")
    path.write_text(path.read_text() + "\n" + plots)
    fails(task, ws)


def test_a_hugo_config_without_the_menu_comment_fails() -> None:
    task = _task("k168")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "hugo.toml", "# The menu at the top, lowest weight first.\n", "")
    fails(task, ws)


def test_a_hugo_config_with_paginate_as_a_string_fails() -> None:
    task = _task("k168")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "hugo.toml", "paginate = 10", 'paginate = "10"')
    fails(task, ws)
