"""What Hearth deletes itself when the task says to remove an item (agent/removals)."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.removals import rest_of_removal

TABLE = """# Settings

| name | default | meaning |
| --- | --- | --- |
| `timeout` | 30 | seconds to wait |
| `legacy_mode` | false | the old parser |
| `legacy_mode_log` | false | logs the old parser |

Set them in `settings.toml`.
"""


def test_a_table_row_that_is_the_removed_name_is_deleted_and_a_longer_name_kept(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(TABLE)
    task = "In README.md, delete the `legacy_mode` row from the settings table."
    changes = rest_of_removal(task, tmp_path, ["README.md"])
    assert changes == {
        "README.md": (TABLE, TABLE.replace("| `legacy_mode` | false | the old parser |\n", ""))
    }


def test_a_name_also_said_in_prose_is_left_to_the_model(tmp_path: Path) -> None:
    text = TABLE + "\nThe legacy_mode setting will go away.\n"
    (tmp_path / "README.md").write_text(text)
    assert rest_of_removal("Remove the `legacy_mode` row from README.md.", tmp_path, ["README.md"]) == {}


def test_list_items_and_keys_are_deleted(tmp_path: Path) -> None:
    (tmp_path / "TODO.md").write_text("# Todo\n\n- [ ] write_docs\n- [x] drop_py38 support\n- [ ] ship\n")
    (tmp_path / "app.ini").write_text("[app]\nname = demo\ndrop_py38 = yes\ndebug = no\n")
    task = "Remove drop_py38 from TODO.md and app.ini."
    changes = rest_of_removal(task, tmp_path, ["TODO.md", "app.ini"])
    assert changes["TODO.md"][1] == "# Todo\n\n- [ ] write_docs\n- [ ] ship\n"
    assert changes["app.ini"][1] == "[app]\nname = demo\ndebug = no\n"


def test_a_section_goes_with_its_keys(tmp_path: Path) -> None:
    text = (
        "[tox]\nenvlist = py311\n\n[testenv:lint]\ncommands = ruff check .\n\n[testenv]\ncommands = pytest\n"
    )
    (tmp_path / "tox.ini").write_text(text)
    changes = rest_of_removal("Delete the [testenv:lint] section from tox.ini.", tmp_path, ["tox.ini"])
    assert changes["tox.ini"][1] == "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest\n"


def test_code_nested_items_and_tests_are_never_touched(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text("legacy_mode = False\ntimeout = 30\n")
    (tmp_path / "config.yaml").write_text("legacy_mode:\n  parser: old\ntimeout: 30\n")
    task = "Remove legacy_mode from config.py and config.yaml."
    assert rest_of_removal(task, tmp_path, ["config.py", "config.yaml"]) == {}


def test_a_symlinked_file_is_not_read_or_changed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(TABLE)
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "README.md").symlink_to(outside)
    assert rest_of_removal("Delete the `legacy_mode` row from README.md.", ws, ["README.md"]) == {}


def test_a_line_that_starts_with_the_name_in_a_sentence_is_prose(tmp_path: Path) -> None:
    (tmp_path / "NOTES.md").write_text("- legacy_mode\n\nlegacy_mode will go away in 2.0.\n")
    assert rest_of_removal("Remove legacy_mode from NOTES.md.", tmp_path, ["NOTES.md"]) == {}


def test_a_json_key_whose_line_would_leave_a_comma_behind_is_left_to_the_model(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{\n  "port": 1,\n  "legacy_pool": true\n}\n')
    (tmp_path / "b.json").write_text('{\n  "legacy_pool": true,\n  "port": 1\n}\n')
    changes = rest_of_removal("Remove legacy_pool from a.json and b.json.", tmp_path, ["a.json", "b.json"])
    assert list(changes) == ["b.json"] and changes["b.json"][1] == '{\n  "port": 1\n}\n'


def test_a_key_in_two_sections_is_left_to_the_model(tmp_path: Path) -> None:
    text = "[*.py]\nindent_size = 4\nmax_line_length = 100\n\n[*.md]\nmax_line_length = 80\n"
    (tmp_path / "setup.cfg").write_text(text)
    task = "Delete the max_line_length line of the Python files in setup.cfg."
    assert rest_of_removal(task, tmp_path, ["setup.cfg"]) == {}


def test_a_plain_word_to_remove_is_a_name_only_where_a_file_holds_it_as_an_item(tmp_path: Path) -> None:
    from hearth.agent.removals import left_items, removed_items

    (tmp_path / "requirements.txt").write_text("click==8.1.7\nsix==1.16.0\n")
    (tmp_path / "notes.md").write_text("We may remove it later; six people use it.\n")
    task = "In requirements.txt, upgrade click, remove six, and add requests."
    assert removed_items(task, tmp_path, ["requirements.txt"]) == ["six"]
    assert left_items(task, tmp_path, ["requirements.txt"]) == [("six", "requirements.txt")]
    assert rest_of_removal(task, tmp_path, ["requirements.txt"])["requirements.txt"][1] == "click==8.1.7\n"
    # in prose the word is no item, and "remove it" names nothing
    assert removed_items("In notes.md, remove six and remove it.", tmp_path, ["notes.md"]) == []
