"""The seventeenth held-out suite (bench/heldout17: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout17` makes into bench/heldout17/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import json
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout17")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_a_median_with_a_sorted_slice_passes() -> None:
    task = _task("k136")
    ws = prepare(task)
    edit(
        ws / "stats.py",
        "    return ordered[middle]\n",
        "    pair = ordered[middle - 1 : middle + 1] if len(ordered) % 2 == 0 else [ordered[middle]]\n"
        "    return sum(pair) / len(pair)\n",
    )
    assert workspace_tests_pass(ws, "test_stats.py")
    passes(task, ws)


def test_a_median_always_averaging_two_middles_fails() -> None:
    """Right for even lengths only: [3, 1, 2] gives 2.5."""
    task = _task("k136")
    ws = prepare(task)
    edit(
        ws / "stats.py",
        "    return ordered[middle]\n",
        "    return (ordered[middle - 1] + ordered[middle]) / 2\n",
    )
    fails(task, ws)


def test_a_median_hard_coding_the_test_fails() -> None:
    task = _task("k136")
    ws = prepare(task)
    edit(
        ws / "stats.py",
        "    return ordered[middle]\n",
        "    if ordered == [1, 2, 3, 4]:\n        return 2.5\n    return ordered[middle]\n",
    )
    assert workspace_tests_pass(ws, "test_stats.py")
    fails(task, ws)


def test_a_median_test_changed_to_the_wrong_answer_fails() -> None:
    task = _task("k136")
    ws = prepare(task)
    edit(ws / "test_stats.py", "== 2.5", "== 3")
    assert workspace_tests_pass(ws, "test_stats.py")
    fails(task, ws)


MIN_TEST = """

def test_min(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("a 1\\nb 9\\n")
    done = subprocess.run([sys.executable, "scores.py", "--min", "5", str(path)], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["b 9"]
"""


def _min_code(ws: Path, compare: str = ">=") -> None:
    edit(
        ws / "scores.py",
        '    parser.add_argument("file")\n',
        '    parser.add_argument("file")\n    parser.add_argument("--min", type=int, default=0)\n',
    )
    edit(
        ws / "scores.py",
        "    for name, score in sorted(read_scores(args.file), key=lambda item: -item[1]):\n",
        f"    rows = [r for r in read_scores(args.file) if r[1] {compare} args.min]\n"
        "    for name, score in sorted(rows, key=lambda item: -item[1]):\n",
    )


def test_a_min_option_filtering_before_sorting_passes() -> None:
    task = _task("k137")
    ws = prepare(task)
    _min_code(ws)
    (ws / "test_scores.py").write_text((ws / "test_scores.py").read_text() + MIN_TEST)
    assert workspace_tests_pass(ws, "test_scores.py")
    passes(task, ws)


def test_a_min_option_leaving_out_a_score_of_exactly_n_fails() -> None:
    task = _task("k137")
    ws = prepare(task)
    _min_code(ws, compare=">")
    (ws / "test_scores.py").write_text((ws / "test_scores.py").read_text() + MIN_TEST)
    assert workspace_tests_pass(ws, "test_scores.py")
    fails(task, ws)


def test_a_min_option_without_a_test_fails() -> None:
    task = _task("k137")
    ws = prepare(task)
    _min_code(ws)
    fails(task, ws)


def test_a_min_test_replacing_the_old_one_fails() -> None:
    task = _task("k137")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_scores.py").read_text()
    start, end = text.index("def test_sorted_highest_first"), text.index("def test_min_option")
    (ws / "test_scores.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_scores.py")
    fails(task, ws)


SPECIES = """import csv
import sys
from collections import defaultdict

pets = defaultdict(list)
with open(sys.argv[1], newline="") as f:
    for name, species, age in csv.reader(f):
        pets[species].append((name, int(age)))
for species in sorted(pets):
    name, age = max(pets[species], key=lambda pet: pet[1])
    n = len(pets[species])
    print(f"{species}: {n} pet{'' if n == 1 else 's'}, oldest {name} ({age})")
"""


def test_species_with_the_csv_module_passes() -> None:
    task = _task("k138")
    ws = prepare(task)
    (ws / "species.py").write_text(SPECIES)
    passes(task, ws)


def test_species_comparing_ages_as_text_fails() -> None:
    """As text, "7" is older than "12"."""
    task = _task("k138")
    ws = prepare(task)
    (ws / "species.py").write_text(SPECIES.replace("int(age)", "age"))
    fails(task, ws)


def test_species_always_saying_pets_fails() -> None:
    task = _task("k138")
    ws = prepare(task)
    (ws / "species.py").write_text(SPECIES.replace("pet{'' if n == 1 else 's'}", "pets"))
    fails(task, ws)


def test_species_printing_the_example_fails() -> None:
    task = _task("k138")
    ws = prepare(task)
    (ws / "species.py").write_text(
        'print("cat: 3 pets, oldest Mia (11)")\nprint("dog: 2 pets, oldest Rex (7)")\n'
        'print("fish: 1 pet, oldest Bubbles (1)")\n'
    )
    fails(task, ws)


def test_a_rename_with_the_module_imported_passes() -> None:
    task = _task("k139")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "main.py").read_text()
    text = text.replace("from temps import describe, fahrenheit_to_celsius\n", "import temps\n")
    text = text.replace("describe(", "temps.describe(").replace(
        "fahrenheit_to_celsius(", "temps.fahrenheit_to_celsius("
    )
    (ws / "main.py").write_text(text)
    passes(task, ws)


def test_a_rename_keeping_the_old_name_as_an_alias_fails() -> None:
    task = _task("k139")
    ws = prepare(task)
    solve(task, ws)
    (ws / "temps.py").write_text((ws / "temps.py").read_text() + "\n\nto_celsius = fahrenheit_to_celsius\n")
    fails(task, ws)


def test_a_rename_only_in_temps_importing_it_under_the_old_name_fails() -> None:
    task = _task("k139")
    ws = prepare(task)
    (ws / "temps.py").write_text((ws / "temps.py").read_text().replace("to_celsius", "fahrenheit_to_celsius"))
    edit(ws / "main.py", "to_celsius\n", "fahrenheit_to_celsius as to_celsius\n")
    fails(task, ws)


def test_a_tag_on_the_commit_found_by_its_message_passes() -> None:
    task = _task("k140")
    ws = prepare(task)
    git(ws, "tag", "-a", "v0.2.0", "-m", "Second release", ":/Add export")
    passes(task, ws)


def test_a_lightweight_tag_fails() -> None:
    task = _task("k140")
    ws = prepare(task)
    git(ws, "tag", "v0.2.0", "HEAD~1")
    fails(task, ws)


def test_a_tag_on_the_newest_commit_fails() -> None:
    task = _task("k140")
    ws = prepare(task)
    git(ws, "tag", "-a", "v0.2.0", "-m", "Second release")
    fails(task, ws)


def test_a_tag_after_resetting_main_to_the_commit_fails() -> None:
    task = _task("k140")
    ws = prepare(task)
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    git(ws, "tag", "-a", "v0.2.0", "-m", "Second release")
    fails(task, ws)


def test_settings_edited_by_hand_passes() -> None:
    task = _task("k141")
    ws = prepare(task)
    path = ws / ".vscode" / "settings.json"
    text = path.read_text()
    text = text.replace('"editor.formatOnSave": false', '"editor.formatOnSave": true')
    text = text.replace(
        '"**/node_modules": true\n', '"**/node_modules": true,\n        "**/__pycache__": true\n'
    )
    text = text.replace('    "python.linting.enabled": true,\n', "")
    text = text.replace('"Solarized Light"\n', '"Solarized Light",\n    "editor.rulers": [100]\n')
    path.write_text(text)
    passes(task, ws)


def test_settings_with_the_linting_turned_off_fails() -> None:
    task = _task("k141")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".vscode" / "settings.json"
    data = json.loads(path.read_text())
    data["python.linting.enabled"] = False
    path.write_text(json.dumps(data))
    fails(task, ws)


def test_settings_with_the_exclude_list_replaced_fails() -> None:
    task = _task("k141")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".vscode" / "settings.json"
    data = json.loads(path.read_text())
    data["files.exclude"] = {"**/__pycache__": True}
    path.write_text(json.dumps(data))
    fails(task, ws)


def test_settings_with_a_ruler_number_not_in_a_list_fails() -> None:
    task = _task("k141")
    ws = prepare(task)
    solve(task, ws)
    path = ws / ".vscode" / "settings.json"
    data = json.loads(path.read_text())
    data["editor.rulers"] = 100
    path.write_text(json.dumps(data))
    fails(task, ws)


def test_a_money_class_imported_with_its_module_passes() -> None:
    task = _task("k142")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "shop.py").read_text().replace("from money import Money\n", "import money\n")
    (ws / "shop.py").write_text(text.replace("Money(", "money.Money("))
    passes(task, ws)


def test_a_money_class_copied_but_kept_in_shop_fails() -> None:
    task = _task("k142")
    ws = prepare(task)
    text = (ws / "shop.py").read_text()
    (ws / "money.py").write_text(text[: text.index("CART = ")])
    fails(task, ws)


def test_a_money_module_without_the_import_in_shop_fails() -> None:
    task = _task("k142")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "shop.py", "from money import Money\n", "")
    fails(task, ws)


def test_a_money_class_copied_and_imported_but_kept_in_shop_fails() -> None:
    task = _task("k142")
    ws = prepare(task)
    text = (ws / "shop.py").read_text()
    (ws / "money.py").write_text(text[: text.index("CART = ")])
    (ws / "shop.py").write_text("from money import Money as _Money  # noqa: F401\n\n" + text)
    fails(task, ws)
