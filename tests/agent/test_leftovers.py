"""The finish review's look for a renamed name left behind reads only the workspace's own files."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.body import kept_definitions
from hearth.agent.leftovers import (
    added,
    alike_renamed,
    leftover_problem,
    missing_added,
    only_renames,
    read_text_file,
    removed,
    renamed,
    renamed_text,
    rest_of_rename,
)
from hearth.agent.named_files import named_paths

TASK = "Rename the constant MAX_TRIES to TRY_LIMIT everywhere."


def test_a_name_left_in_a_file_is_found_and_a_symlink_out_of_the_workspace_is_not_read(
    tmp_path: Path,
) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside.py"
    ws.mkdir()
    outside.write_text("MAX_TRIES = 3\n")
    (ws / "settings.py").write_text("TRY_LIMIT = 3\n")
    (ws / "link.py").symlink_to(outside)
    assert leftover_problem(TASK, ws, []) == ""
    (ws / "app.py").write_text("from settings import MAX_TRIES\n")
    assert "MAX_TRIES is still in app.py (line 1)" in leftover_problem(TASK, ws, [])


def test_a_method_renamed_of_its_class_is_looked_for_in_the_tests_names_too(tmp_path: Path) -> None:
    """The 1.5B renamed `add_song` everywhere but in `test_add_song_returns_the_position`, and the
    task ("Rename the method add_song of Playlist to enqueue ..., test names included") was read
    as no rename at all: the owner after the name hid it."""
    task = "Rename the method add_song of Playlist to enqueue everywhere, test names included."
    (tmp_path / "playlist.py").write_text("class Playlist:\n    def enqueue(self, title):\n        pass\n")
    (tmp_path / "test_playlist.py").write_text(
        "def test_add_songs_sorted():\n    pass\n\n\ndef test_enqueue_returns():\n    pass\n"
    )
    assert leftover_problem(task, tmp_path, []) == ""  # add_songs is another name
    (tmp_path / "test_playlist.py").write_text("def test_add_song_returns_the_position():\n    pass\n")
    assert "add_song is still in test_playlist.py (line 1)" in leftover_problem(task, tmp_path, [])


TOX = """# Test environments.
[tox]
envlist = py310, py311, lint

[testenv:lint]
commands = ruff check --line-length 88 src

[testenv:docs]
commands = mkdocs build
"""
TOX_TASK = (
    "In tox.ini, add py312 to the envlist right after py311, change the lint line length from 88 to 100, "
    "delete the [testenv:docs] section, and add a [testenv:types] section at the end with deps = mypy."
)


def test_names_the_task_says_to_add_must_be_in_the_file_and_a_deleted_section_gone(tmp_path: Path) -> None:
    """The 1.5B rewrote tox.ini without py312 and finished; the review reads the names the task
    says to add (a word with a digit, an ini section, an option) and to delete (a section)."""
    assert added(TOX_TASK) == ["py312", "[testenv:types]"] and removed(TOX_TASK) == ["[testenv:docs]"]
    (tmp_path / "tox.ini").write_text(TOX.replace("88", "100") + "\n[testenv:types]\ndeps = mypy\n")
    assert leftover_problem(TOX_TASK, tmp_path, ["tox.ini"]) == (
        "the task asks to remove [testenv:docs], but it is still in tox.ini (line 8). "
        "Write that file again without it, then finish."
    )
    done = TOX.replace("88", "100").split("[testenv:docs]")[0] + "[testenv:types]\ndeps = mypy\n"
    (tmp_path / "tox.ini").write_text(done)
    assert leftover_problem(TOX_TASK, tmp_path, ["tox.ini"]) == ""
    assert "the task asks to add py312, but it is in none of tox.ini" in missing_added(
        TOX_TASK, tmp_path, ["tox.ini"]
    )
    (tmp_path / "tox.ini").write_text(done.replace("py311,", "py311, py312,"))
    assert missing_added(TOX_TASK, tmp_path, ["tox.ini"]) == ""


def test_a_name_to_add_inside_another_word_is_not_there(tmp_path: Path) -> None:
    """Asked to add a "lint" script and eslint, the 1.5B added eslint only and finished (exit 0):
    "lint" was found inside "eslint"."""
    task = 'In package.json, add a "lint" script "eslint src" and "eslint": "^9.5.0" to the devDependencies.'
    (tmp_path / "package.json").write_text('{"scripts": {}, "devDependencies": {"eslint": "^9.5.0"}}\n')
    assert "the task asks to add lint" in missing_added(task, tmp_path, ["package.json"])
    (tmp_path / "package.json").write_text(
        '{"scripts": {"lint": "eslint src"}, "devDependencies": {"eslint": "^9.5.0"}}\n'
    )
    assert missing_added(task, tmp_path, ["package.json"]) == ""


def test_a_quoted_name_after_words_saying_what_it_is_must_be_added(tmp_path: Path) -> None:
    """ "add a menu entry "Plots" for /plots/ with weight 2": the 1.5B made the task's three other
    edits to hugo.toml, never this one, and finished with exit 0."""
    task = 'In hugo.toml: set paginate to 10, and add a menu entry "Plots" for /plots/ with weight 2.'
    menu = '[[menu.main]]\n  name = "News"\n  weight = 1\n'
    (tmp_path / "hugo.toml").write_text("paginate = 10\n\n" + menu)
    assert "the task asks to add Plots" in missing_added(task, tmp_path, ["hugo.toml"])
    (tmp_path / "hugo.toml").write_text("paginate = 10\n\n" + menu + '\n[[menu.main]]\n  name = "Plots"\n')
    assert missing_added(task, tmp_path, ["hugo.toml"]) == ""
    assert added("add a new nav link called `Plots`") == ["Plots"]
    assert added("Add the file 'notes.txt' and git add the file 'x'") == []  # a file; a git step


def test_only_names_are_read_as_added_never_prose_files_or_a_commits_step() -> None:
    assert added("Add an --ignore-case option (short form -i) to search.py. Add a test for it.") == [
        "--ignore-case"
    ]
    assert added("Add and commit a .gitignore that ignores __pycache__, then git add notes.txt.") == []
    assert added("Add 2 to each number, and add a line that says hello.") == []
    assert added("Add `retries` to config.json and a MAX_SIZE constant; add the option `-q`.") == [
        "retries",
        "-q",
    ]


def test_a_test_renamed_with_the_name_is_not_put_back_as_left_out() -> None:
    """A whole-file write that leaves a function out gets it back (a small model writes only the
    one it changed); in a rename, `test_add_song_works` written as `test_enqueue_works` was put
    back with the old name in it, and the rename never finished."""
    tests = "def test_add_song_works():\n    pass\n\n\ndef test_other():\n    pass\n"
    task = "Rename the method add_song of Playlist to enqueue everywhere, test names included."
    renamed_text = "def test_enqueue_works():\n    pass\n"
    text, kept = kept_definitions(renamed_text, tests, task)
    assert kept == ["test_other"] and "add_song" not in text
    assert kept_definitions(renamed_text, tests, "Rename the method add to push.")[1] == [
        "test_add_song_works",
        "test_other",
    ]


def test_a_rename_of_a_parameter_of_two_functions_is_read_as_one(tmp_path: Path) -> None:
    """ "Rename the parameter tax_pct of invoice_total and describe to vat_rate": the second owner
    hid the rename, and the 1.5B's comment "# Rename tax_pct to vat_rate" was left unseen."""
    task = "Rename the parameter tax_pct of invoice_total and describe to vat_rate everywhere (billing.py)."
    assert renamed(task) == [("tax_pct", "vat_rate")]
    (tmp_path / "billing.py").write_text("def describe(lines, vat_rate=0):  # Rename tax_pct to vat_rate\n")
    assert "tax_pct is still in billing.py (line 1)" in leftover_problem(task, tmp_path, [])


def test_a_plain_word_said_with_its_kind_is_a_name_to_rename(tmp_path: Path) -> None:
    """ "Rename the field qty of the Item dataclass to quantity": a plain word, read as a name
    because the task says what it is; the 1.5B left `qty=` in two files and was told only that
    the tests failed."""
    task = (
        "Rename the field qty of the Item dataclass to quantity everywhere (stock.py and report.py), "
        "the places that make an Item with qty= included."
    )
    assert renamed(task) == [("qty", "quantity")]
    assert renamed("Rename the constant limit to max_items.") == [("limit", "max_items")]
    assert renamed("Rename get to fetch.") == []  # a plain word, no kind said: too common to look for
    assert renamed("Rename the word color to colour in README.md.") == []
    (tmp_path / "stock.py").write_text("class Item:\n    quantity: int\n")
    (tmp_path / "report.py").write_text("from stock import Item\n\nSTOCK = [Item(qty=4)]\n")
    assert "qty is still in report.py (line 3)" in leftover_problem(task, tmp_path, [])


def test_a_host_name_is_no_file_name() -> None:
    """ "HostName backup.example.com" was read as a file `backup.example` the task names; told it
    was missing, the 1.5B created it."""
    task = "In ssh_config, add a host backup with HostName backup.example.com; mail bob@example.org."
    assert named_paths(task) == []
    assert named_paths("Fix calc/ops.py and main.c, then write notes.txt.") == [
        "calc/ops.py",
        "main.c",
        "notes.txt",
    ]


def test_a_hyphenated_name_the_task_deletes_must_be_gone_from_a_file_without_an_extension(
    tmp_path: Path,
) -> None:
    """ "delete the old-mirror host" in ssh_config: the 1.5B kept the host and finished."""
    task = "In ssh_config, delete the old-mirror host."
    assert removed(task) == ["old-mirror"]
    (tmp_path / "ssh_config").write_text("Host build\n    Port 22\n\nHost old-mirror\n    User sync\n")
    assert "old-mirror, but it is still in ssh_config (line 4)" in leftover_problem(
        task, tmp_path, ["ssh_config"]
    )


RELEASE = (
    "In CHANGELOG.md, release what is under Unreleased as version 1.4.0: its heading becomes "
    "`## [1.4.0] - 2026-11-20`, a new empty `## [Unreleased]` section goes above it, and add "
    "`- Sort the list by aisle.` as the last item under its Added. Keep everything else as it is."
)


def test_the_new_text_of_a_change_in_backticks_must_be_in_the_file(tmp_path: Path) -> None:
    """The 1.5B added the item the sentence asks, left the new heading and section out, and
    finished (exit 0): the new text a change gives in backticks is looked for like a name to add."""
    assert added(RELEASE) == ["## [1.4.0] - 2026-11-20", "## [Unreleased]"]
    assert added("Set the port in config.toml to `8080`.") == ["8080"]
    assert added("Replace the title in index.html with `Corner Shop`.") == ["Corner Shop"]
    assert added("Bump the version to `2.0.1` in setup.cfg") == ["2.0.1"]
    assert added("python3 count.py must print `3`") == []  # an output, not a file's new text
    changelog = tmp_path / "CHANGELOG.md"
    half = "# Changelog\n\n## [Unreleased]\n\n### Added\n- A dark theme.\n- Sort the list by aisle.\n"
    changelog.write_text(half)
    problem = missing_added(RELEASE, tmp_path, ["CHANGELOG.md"])
    assert "## [1.4.0] - 2026-11-20" in problem and "CHANGELOG.md" in problem
    changelog.write_text(half.replace("## [Unreleased]\n", "## [Unreleased]\n\n## [1.4.0] - 2026-11-20\n"))
    assert missing_added(RELEASE, tmp_path, ["CHANGELOG.md"]) == ""


def test_an_old_name_the_task_keeps_as_a_wrapper_is_neither_a_leftover_nor_renamed(tmp_path: Path) -> None:
    """The 1.5B wrote get_rate and a fetch_rate wrapper warning of the new name; Hearth's rename
    finisher then replaced fetch_rate everywhere, the wrapper became a second get_rate, and the
    run ended 0 with the wrapper gone."""
    rates = (
        "import warnings\n\n\ndef get_rate(code):\n    return {'usd': 1.1}[code]\n\n\n"
        "def fetch_rate(code):\n    warnings.warn('use get_rate', DeprecationWarning)\n    return get_rate(code)\n"
    )
    (tmp_path / "rates.py").write_text(rates)
    task = (
        "Rename the function fetch_rate in rates.py to get_rate, and use the new name in rates.py and "
        "report.py. Keep fetch_rate working for old code as a wrapper that calls get_rate."
    )
    assert renamed(task) == [] and rest_of_rename(task, tmp_path) == {}
    assert leftover_problem(task, tmp_path, ["rates.py"]) == ""
    for kept in ("keep `load_data` as an alias", "load_data stays as a deprecated alias"):
        assert renamed(f"Rename load_data to read_rows in data.py; {kept}.") == []
    # a rename whose sentence only keeps something else still counts
    assert renamed("Rename fetch_rate to get_rate everywhere and keep the tests passing.") == [
        ("fetch_rate", "get_rate")
    ]
    assert rest_of_rename("Rename fetch_rate to get_rate everywhere.", tmp_path)


SHAPES = (
    "import math\n\n\ndef circle_area(r):\n    return math.pi * r**2\n\n\n"
    'if __name__ == "__main__":\n    print(f"{circle_area(1.5):.2f}")\n'
)


def test_a_rewrite_that_stops_before_the_main_block_gets_it_back() -> None:
    """Adding docstrings to a whole file, the 1.5B stopped before the script's main block and
    finished; `python3 shapes.py` then printed nothing."""
    documented = 'import math\n\n\ndef circle_area(r):\n    """The area of a circle of radius r."""\n    return math.pi * r**2\n'
    whole, names = kept_definitions(documented, SHAPES, "Add a docstring to each function in shapes.py.")
    assert whole.startswith(documented.rstrip("\n")) and whole.endswith(SHAPES[SHAPES.index("if __name__") :])
    assert names == ['its `if __name__ == "__main__":` block']
    # a task that speaks of the block may mean to drop it; a text keeping it is left as it is
    assert kept_definitions(documented, SHAPES, "Remove the main block from shapes.py.") == (documented, [])
    assert kept_definitions(SHAPES, SHAPES, "Add a docstring.") == (SHAPES, [])


def test_a_hyphenated_name_is_renamed_as_a_whole_word() -> None:
    """A CSS class, an HTML id: names joined by hyphens; a longer name that starts with the old
    one (`btn-primary-wide`) is another name."""
    task = "Rename the CSS class btn-primary to btn-main in index.html and style.css. Only that class."
    assert renamed(task) == [("btn-primary", "btn-main")] and only_renames(task)
    html = '<a class="btn btn-primary">Go</a> <a class="btn-primary-wide">Call</a>\n.btn-primary:hover {}\n'
    assert renamed_text(task, html) == (
        '<a class="btn btn-main">Go</a> <a class="btn-primary-wide">Call</a>\n.btn-main:hover {}\n'
    )
    assert renamed("Rename notes.txt to NOTES.md") == []


PUBLISH = """\"\"\"python3 publish.py --out DIR [--out-format html|txt] PAGE...\"\"\"
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--out-format", default="html")
args = parser.parse_args()
print(args.out, args.out_format, args.outline if hasattr(args, "outline") else "")
"""
OPTION_TASK = "Rename the --out option of publish.py to --dest, in publish.py and in README.md."


def test_a_long_option_renamed_takes_the_attribute_argparse_reads_it_into_and_no_other_option() -> None:
    """ "Rename the --out option ... to --dest" was read as no rename at all (an option is no
    identifier), so nothing judged a rename that also renamed `--out-format`."""
    assert renamed(OPTION_TASK) == [("--out", "--dest")] and only_renames(OPTION_TASK)
    assert renamed("Rename the -o flag to -d in tool.py.") == [("-o", "-d")]
    text = renamed_text(OPTION_TASK, PUBLISH)
    assert '"--dest", required=True' in text and "--dest DIR [--out-format" in text
    assert "print(args.dest, args.out_format, args.outline" in text  # argparse's `dest`, no other
    assert '"--out-format"' in text and '--out"' not in text


def _now(root: Path, shown: dict[str, str]) -> dict[str, str | None]:
    return {path: read_text_file(root / path) for path in shown}


def test_a_name_holding_the_old_name_renamed_with_it_is_said_to_the_model(tmp_path: Path) -> None:
    over = PUBLISH.replace("--out", "--dest").replace("args.out", "args.dest")
    (tmp_path / "publish.py").write_text(over)
    found = alike_renamed(OPTION_TASK, {"publish.py": PUBLISH}, _now(tmp_path, {"publish.py": PUBLISH}))
    assert "`--out-format` in publish.py became `--dest-format`" in found and "only `--out`" in found
    # the rename as an editor makes it: nothing to say
    (tmp_path / "publish.py").write_text(renamed_text(OPTION_TASK, PUBLISH))
    assert alike_renamed(OPTION_TASK, {"publish.py": PUBLISH}, _now(tmp_path, {"publish.py": PUBLISH})) == ""
    # the attribute alone renamed with it
    (tmp_path / "publish.py").write_text(
        renamed_text(OPTION_TASK, PUBLISH).replace("args.out_format", "args.dest_format")
    )
    assert "`out_format` in publish.py became `dest_format`" in alike_renamed(
        OPTION_TASK, {"publish.py": PUBLISH}, _now(tmp_path, {"publish.py": PUBLISH})
    )
    # a look-alike setting the task asks to rename as well is the task's
    task = "Rename the setting max_items to page_size, and max_items_in_search to page_size_in_search."
    (tmp_path / "app.py").write_text("page_size = 3\npage_size_in_search = 5\n")
    shown = {"app.py": "max_items = 3\nmax_items_in_search = 5\n"}
    assert alike_renamed(task, shown, _now(tmp_path, shown)) == ""
    task = "Rename the setting max_items to page_size in app.py."
    assert "`max_items_in_search` in app.py became `page_size_in_search`" in alike_renamed(
        task, shown, _now(tmp_path, shown)
    )


def test_a_plain_word_said_with_its_value_is_a_name_to_add(tmp_path: Path) -> None:
    """Asked for three changes to Cargo.toml, one of them "add serde = { ... } to the
    dependencies", the 1.5B made the first, wrote the file back unchanged after the checklist and
    finished again: exit 0 with serde nowhere. A plain word said as a key with its value is a name
    the file must then hold."""
    task = (
        'In Cargo.toml, set the version to 0.4.0, and add serde = { version = "1" } to the '
        "dependencies. Add 2 to the count == 3 check."
    )
    assert added(task) == ["serde"]
    (tmp_path / "Cargo.toml").write_text('[package]\nversion = "0.4.0"\n\n[dependencies]\nclap = "4"\n')
    assert "serde" in missing_added(task, tmp_path, ["Cargo.toml"])
    (tmp_path / "Cargo.toml").write_text('[dependencies]\nclap = "4"\nserde = { version = "1" }\n')
    assert missing_added(task, tmp_path, ["Cargo.toml"]) == ""


TIPS_TASK = "Rename the function tip to tip_amount in tips.py and bill.py; tip_percent keeps its name."
BILL = (
    '"""Print each table\'s bill with the tip."""\n'
    "from tips import tip, tip_percent\n\n\n"
    "def main():  # tip first\n"
    '    extra = tip(86.4)\n    print(f"Table 4: 86.40 + tip {extra:.2f} {{tip}} {tip(1):.2f}")\n'
    '    print("a tip of", tip_percent(5, 50))\n\n\n'
    "def test_tip_rounds():\n    assert tip(8) == 1.0\n"
)


def test_a_function_renamed_in_python_code_keeps_the_words_of_its_strings() -> None:
    """The task's output must stay the same: "tip" in a printed string is a word, not the name."""
    after = renamed_text(TIPS_TASK, BILL, "bill.py")
    assert "from tips import tip_amount, tip_percent" in after
    assert "extra = tip_amount(86.4)" in after and "def test_tip_amount_rounds" in after
    assert '+ tip {extra:.2f} {{tip}} {tip_amount(1):.2f}")' in after  # an f-string's field only
    assert '"a tip of"' in after and "Print each table's bill with the tip" in after
    assert "# tip_amount first" in after  # a comment is no output: it names the function
    # elsewhere, and for names that live in strings (a column), every word is renamed as before
    assert "tip_amount" in renamed_text(TIPS_TASK, "Call tip(total).\n", "README.md")
    column = renamed_text("Rename the column qty to quantity in report.py.", 'row["qty"]\n', "report.py")
    assert column == 'row["quantity"]\n'


def test_a_function_left_only_in_strings_words_is_no_leftover(tmp_path: Path) -> None:
    (tmp_path / "bill.py").write_text(renamed_text(TIPS_TASK, BILL, "bill.py"))
    assert leftover_problem(TIPS_TASK, tmp_path, ["tips.py", "bill.py"]) == ""
    (tmp_path / "bill.py").write_text(BILL)
    assert "tip is still in bill.py" in leftover_problem(TIPS_TASK, tmp_path, ["tips.py", "bill.py"])
