"""The fifteenth held-out suite (bench/heldout15: multi-step tasks, and HumanEval exercises that
`bench/exercises.py --set heldout15` makes into bench/heldout15/exercises): what is particular to a
task's check, shown by near-misses that must fail and other honest solutions that must pass. These
tasks are only for measuring; no harness change is tuned on them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bench.suite_checks import BENCH, edit, fails, find_task, git, passes, solve, workspace_tests_pass
from hearth.bench.tasks import BenchTask, load_tasks, prepare

TASKS = load_tasks(BENCH / "heldout15")


def _task(part: str) -> BenchTask:
    return find_task(TASKS, part)


def test_shorten_rewritten_as_one_expression_passes() -> None:
    task = _task("k122")
    ws = prepare(task)
    edit(
        ws / "shorten.py",
        '    if len(text) < width:\n        return text\n    return text[:width] + "..."\n',
        '    return text if len(text) <= width else text[: max(width - 3, 0)] + "..."\n',
    )
    assert workspace_tests_pass(ws, "test_shorten.py")
    passes(task, ws)


def test_shorten_with_only_the_boundary_fixed_fails() -> None:
    task = _task("k122")
    ws = prepare(task)
    edit(ws / "shorten.py", "if len(text) < width:", "if len(text) <= width:")
    assert not workspace_tests_pass(ws, "test_shorten.py")
    fails(task, ws)


def test_shorten_hard_coded_for_the_tested_width_fails() -> None:
    task = _task("k122")
    ws = prepare(task)
    edit(ws / "shorten.py", "if len(text) < width:", "if len(text) <= width:")
    edit(ws / "shorten.py", '    return text[:width] + "..."', '    return text[:7] + "..."')
    assert workspace_tests_pass(ws, "test_shorten.py")
    fails(task, ws)


def test_shorten_with_the_failing_tests_edited_fails() -> None:
    task = _task("k122")
    ws = prepare(task)
    edit(ws / "shorten.py", "if len(text) < width:", "if len(text) <= width:")
    edit(ws / "test_shorten.py", '"Lemon d..."', '"Lemon driz..."')
    edit(ws / "test_shorten.py", '    assert len(shorten("Lemon drizzle cake", 10)) == 10\n', "")
    assert workspace_tests_pass(ws, "test_shorten.py")
    fails(task, ws)


NUMBERED_TEST = """

def test_numbered(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("tea\\n")
    done = subprocess.run([sys.executable, "shopping.py", "-n", str(path)], capture_output=True, text=True)
    assert done.stdout == "1. tea x1\\n"
"""


def _numbered_code(ws: Path, start: int = 1) -> None:
    """-n read with argparse, the number counted by hand."""
    edit(
        ws / "shopping.py",
        '    args = parser.parse_args()\n    for name, count in read_items(args.file):\n        print(f"{name} x{count}")\n',
        '    parser.add_argument("--numbered", "-n", action="store_true")\n'
        "    args = parser.parse_args()\n"
        f"    number = {start}\n"
        "    for name, count in read_items(args.file):\n"
        "        line = f'{name} x{count}'\n"
        "        if args.numbered:\n"
        "            line = str(number) + '. ' + line\n"
        "        number += 1\n"
        "        print(line)\n",
    )


def test_a_numbered_option_counted_by_hand_with_a_test_passes() -> None:
    task = _task("k123")
    ws = prepare(task)
    _numbered_code(ws)
    (ws / "test_shopping.py").write_text((ws / "test_shopping.py").read_text() + NUMBERED_TEST)
    assert workspace_tests_pass(ws, "test_shopping.py")
    passes(task, ws)


def test_a_numbered_option_without_a_test_fails() -> None:
    task = _task("k123")
    ws = prepare(task)
    _numbered_code(ws)
    fails(task, ws)


def test_a_numbered_option_counting_from_zero_fails() -> None:
    task = _task("k123")
    ws = prepare(task)
    _numbered_code(ws, start=0)
    (ws / "test_shopping.py").write_text(
        (ws / "test_shopping.py").read_text() + NUMBERED_TEST.replace('"1. tea', '"0. tea')
    )
    assert workspace_tests_pass(ws, "test_shopping.py")
    fails(task, ws)


def test_a_numbered_test_replacing_an_old_one_fails() -> None:
    task = _task("k123")
    ws = prepare(task)
    solve(task, ws)
    text = (ws / "test_shopping.py").read_text()
    start, end = text.index("def test_prints_one_item_a_line"), text.index("def test_numbered_option")
    (ws / "test_shopping.py").write_text(text[:start] + text[end:])
    assert workspace_tests_pass(ws, "test_shopping.py")
    fails(task, ws)


EXTSIZES = """import os.path
import sys
from collections import defaultdict

counts = defaultdict(int)
sizes = defaultdict(int)
for line in open(sys.argv[1]):
    path, size = line.split()
    ext = os.path.splitext(path)[1].lstrip(".") or "(none)"
    counts[ext] += 1
    sizes[ext] += int(size)
for ext in sorted(sizes, key=lambda e: (-sizes[e], e)):
    print(f"{ext}: {counts[ext]} file{'s' if counts[ext] > 1 else ''}, {sizes[ext]} bytes")
"""


def test_sizes_by_extension_with_splitext_passes() -> None:
    task = _task("k124")
    ws = prepare(task)
    (ws / "extsizes.py").write_text(EXTSIZES)
    passes(task, ws)


def test_sizes_by_extension_taking_the_last_dot_of_the_path_fails() -> None:
    """release.v2/CHANGES has no extension: the dot is in its folder's name."""
    task = _task("k124")
    ws = prepare(task)
    (ws / "extsizes.py").write_text(
        EXTSIZES.replace(
            'os.path.splitext(path)[1].lstrip(".") or "(none)"',
            'path.rsplit(".", 1)[1] if "." in path else "(none)"',
        )
    )
    fails(task, ws)


def test_sizes_by_extension_sorted_by_name_fails() -> None:
    task = _task("k124")
    ws = prepare(task)
    (ws / "extsizes.py").write_text(EXTSIZES.replace("key=lambda e: (-sizes[e], e)", "key=lambda e: e"))
    fails(task, ws)


def test_sizes_by_extension_saying_1_files_fails() -> None:
    task = _task("k124")
    ws = prepare(task)
    (ws / "extsizes.py").write_text(EXTSIZES.replace("file{'s' if counts[ext] > 1 else ''}", "files"))
    fails(task, ws)


def test_sizes_by_extension_printing_the_example_fails() -> None:
    task = _task("k124")
    ws = prepare(task)
    (ws / "extsizes.py").write_text(
        'print("png: 1 file, 20480 bytes")\nprint("py: 2 files, 6000 bytes")\n'
        'print("md: 3 files, 5400 bytes")\nprint("(none): 1 file, 300 bytes")\n'
    )
    fails(task, ws)


def _readme_renamed(ws: Path) -> None:
    for old in ("--out DIR", "--out site", "--out build"):
        edit(ws / "README.md", old, old.replace("--out", "--dest"))


def test_an_option_renamed_keeping_its_attribute_name_passes() -> None:
    task = _task("k125")
    ws = prepare(task)
    edit(
        ws / "publish.py",
        'parser.add_argument("--out", required=True,',
        'parser.add_argument("--dest", dest="out", required=True,',
    )
    edit(ws / "publish.py", "--out DIR", "--dest DIR")
    _readme_renamed(ws)
    passes(task, ws)


def test_an_option_renamed_only_in_the_script_fails() -> None:
    task = _task("k125")
    ws = prepare(task)
    solve(task, ws)
    (ws / "README.md").write_text((ws / "README.md").read_text().replace("--dest", "--out"))
    fails(task, ws)


def test_an_option_renamed_with_a_plain_replace_everywhere_fails() -> None:
    """--out-format is another option: it must keep its name."""
    task = _task("k125")
    ws = prepare(task)
    for name in ("publish.py", "README.md"):
        (ws / name).write_text(
            (ws / name).read_text().replace("--out", "--dest").replace("args.out", "args.dest")
        )
    fails(task, ws)


def test_an_option_given_a_new_name_beside_the_old_one_fails() -> None:
    task = _task("k125")
    ws = prepare(task)
    edit(
        ws / "publish.py",
        'parser.add_argument("--out", required=True,',
        'parser.add_argument("--dest", "--out", dest="out", required=True,',
    )
    _readme_renamed(ws)
    fails(task, ws)


def test_a_file_restored_with_git_show_passes() -> None:
    task = _task("k126")
    ws = prepare(task)
    shown = subprocess.run(
        ["git", "show", "HEAD~2:helpers.py"], cwd=ws, check=True, capture_output=True, text=True
    )
    (ws / "helpers.py").write_text(shown.stdout)
    git(ws, "add", "helpers.py")
    git(ws, "commit", "-qm", "Bring back helpers.py")
    passes(task, ws)


def test_a_file_restored_and_tried_out_before_committing_passes() -> None:
    """Running main.py leaves an untracked __pycache__ behind: that is no uncommitted change."""
    task = _task("k126")
    ws = prepare(task)
    git(ws, "restore", "--source=HEAD~2", "helpers.py")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "main.py"], cwd=ws, check=True, capture_output=True, env=env)
    git(ws, "add", "helpers.py")
    git(ws, "commit", "-qm", "Bring back helpers.py")
    assert (ws / "__pycache__").is_dir()
    passes(task, ws)


def test_a_file_restored_with_a_change_left_uncommitted_fails() -> None:
    task = _task("k126")
    ws = prepare(task)
    solve(task, ws)
    (ws / "main.py").write_text((ws / "main.py").read_text() + "# try\n")
    fails(task, ws)


def test_a_file_restored_but_not_committed_fails() -> None:
    task = _task("k126")
    ws = prepare(task)
    git(ws, "checkout", "HEAD~2", "--", "helpers.py")
    fails(task, ws)


def test_the_whole_tidy_up_reverted_fails() -> None:
    """Reverting 'Tidy up' brings back old_scores.txt and the README line too."""
    task = _task("k126")
    ws = prepare(task)
    git(ws, "revert", "--no-edit", "HEAD~1")
    git(ws, "commit", "--amend", "-qm", "Bring back helpers.py")
    fails(task, ws)


def test_a_file_restored_into_the_last_commit_fails() -> None:
    task = _task("k126")
    ws = prepare(task)
    git(ws, "checkout", "HEAD~2", "--", "helpers.py")
    git(ws, "commit", "--amend", "-qm", "Bring back helpers.py")
    fails(task, ws)


def test_a_file_restored_with_another_message_fails() -> None:
    task = _task("k126")
    ws = prepare(task)
    git(ws, "checkout", "HEAD~2", "--", "helpers.py")
    git(ws, "commit", "-qm", "Restore helpers")
    fails(task, ws)


def test_a_cargo_toml_edited_with_serde_first_passes() -> None:
    task = _task("k127")
    ws = prepare(task)
    path = ws / "Cargo.toml"
    edit(path, 'version = "0.3.2"', 'version = "0.4.0"')
    edit(path, 'edition = "2018"', 'edition="2021"')
    edit(path, 'tempfile = "3.10"\n', "")
    edit(path, "[dependencies]\n", '[dependencies]\nserde = { version = "1", features = ["derive"] }\n')
    edit(
        path,
        '[dev-dependencies]\nassert_cmd = "2.0"\n',
        '[dev-dependencies]\nassert_cmd = "2.0"\ntempfile = "3.10"\n',
    )
    passes(task, ws)


def test_a_cargo_toml_with_tempfile_in_both_fails() -> None:
    task = _task("k127")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "Cargo.toml", 'walkdir = "2"\n', 'walkdir = "2"\ntempfile = "3.10"\n')
    fails(task, ws)


def test_a_cargo_toml_without_its_comment_fails() -> None:
    task = _task("k127")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "Cargo.toml", "# Only for the tests\n", "")
    fails(task, ws)


def test_a_cargo_toml_with_the_old_edition_fails() -> None:
    task = _task("k127")
    ws = prepare(task)
    solve(task, ws)
    edit(ws / "Cargo.toml", 'edition = "2021"', 'edition = "2018"')
    fails(task, ws)


def test_a_price_parser_used_through_the_module_passes() -> None:
    task = _task("k128")
    ws = prepare(task)
    text = (ws / "shop.py").read_text()
    start, end = text.index("def parse_price"), text.index("PRICES = ")
    (ws / "prices.py").write_text(text[start:end])
    (ws / "shop.py").write_text(
        ("import prices\n\n" + text[:start] + text[end:]).replace(
            "parse_price(text)", "prices.parse_price(text)"
        )
    )
    edit(
        ws / "importer.py",
        "from shop import PRICES, parse_price, show\n",
        "from prices import parse_price as read_price\nfrom shop import PRICES, show\n",
    )
    edit(ws / "importer.py", '= parse_price(row["price"])', '= read_price(row["price"])')
    passes(task, ws)


def test_a_price_parser_copied_but_left_in_the_shop_fails() -> None:
    task = _task("k128")
    ws = prepare(task)
    text = (ws / "shop.py").read_text()
    (ws / "prices.py").write_text(text[text.index("def parse_price") : text.index("PRICES = ")])
    edit(
        ws / "importer.py",
        "from shop import PRICES, parse_price, show\n",
        "from prices import parse_price\nfrom shop import PRICES, show\n",
    )
    fails(task, ws)


def test_a_price_parser_still_imported_from_the_shop_fails() -> None:
    task = _task("k128")
    ws = prepare(task)
    solve(task, ws)
    edit(
        ws / "importer.py",
        "from prices import parse_price\nfrom shop import PRICES, show\n",
        "from shop import PRICES, parse_price, show\n",
    )
    fails(task, ws)
