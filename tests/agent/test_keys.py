"""A JSON or TOML file's keys a write left out, and items a task adds to a list (agent/keys)."""

from __future__ import annotations

import json

from hearth.agent.keys import lost_keys, unadded

CONFIG = {
    "compilerOptions": {"target": "ES2017", "allowJs": True, "sourceMap": True, "lib": ["ES2017"]},
    "exclude": ["node_modules"],
}
BEFORE = json.dumps(CONFIG, indent=2)
TASK = "In tsconfig.json, make the target ES2022, remove allowJs and add dist to the exclude list."


def after(**changes: object) -> str:
    data = json.loads(BEFORE)
    options = data["compilerOptions"]
    for key, value in changes.items():
        if value is None:
            options.pop(key)
        else:
            options[key] = value
    return json.dumps(data, indent=2)


def test_a_key_the_task_names_may_go_and_one_it_does_not_name_may_not() -> None:
    asked = after(target="ES2022", allowJs=None)
    assert lost_keys("tsconfig.json", BEFORE, asked, TASK) == []
    too_much = after(target="ES2022", allowJs=None, sourceMap=None)
    assert lost_keys("tsconfig.json", BEFORE, too_much, TASK) == [(("compilerOptions", "sourceMap"), True)]


def test_a_key_said_with_its_words_apart_is_named() -> None:
    task = "Turn off the source map in tsconfig.json; drop it."
    assert lost_keys("tsconfig.json", BEFORE, after(sourceMap=None), task) == []


def test_a_lost_object_is_reported_once_and_not_each_of_its_keys() -> None:
    gone = json.dumps({"exclude": ["node_modules"]})
    assert lost_keys("tsconfig.json", BEFORE, gone, "add dist to the exclude list") == [
        (("compilerOptions",), CONFIG["compilerOptions"])
    ]


def test_toml_tables_and_their_keys_count_and_a_named_table_may_go() -> None:
    before = '[project]\nname = "app"\nversion = "0.2.0"\n\n[tool.black]\nline-length = 88\n'
    asked = '[project]\nname = "app"\nversion = "0.3.0"\n'
    task = "In pyproject.toml, set the version to 0.3.0 and remove the [tool.black] section."
    assert lost_keys("pyproject.toml", before, asked, task) == []
    assert lost_keys("pyproject.toml", before, '[project]\nversion = "0.3.0"\n', task) == [
        (("project", "name"), "app")
    ]


def test_files_that_do_not_parse_or_are_not_data_are_left_alone() -> None:
    assert lost_keys("tsconfig.json", BEFORE, "{ broken", TASK) == []
    assert lost_keys("notes.txt", BEFORE, "{}", TASK) == []


def test_an_item_added_to_a_list_is_looked_for_in_that_list_only() -> None:
    # `dist` is elsewhere in the file, but not in the list the task adds it to
    text = after(target="ES2022", allowJs=None, outDir="dist")
    assert unadded("tsconfig.json", text, TASK) == ("dist", "exclude", '["node_modules"]')
    done = json.loads(text)
    done["exclude"].append("dist")
    assert unadded("tsconfig.json", json.dumps(done), TASK) is None


def test_quoted_items_and_lists_the_file_does_not_have_are_judged_as_said() -> None:
    deps = '[project]\ndependencies = ["httpx>=0.27"]\n'
    task = 'Add "rich>=13" to the dependencies in pyproject.toml.'
    assert unadded("pyproject.toml", deps, task) == ("rich>=13", "dependencies", '["httpx>=0.27"]')
    assert unadded("pyproject.toml", deps.replace('"]', '", "rich>=13"]'), task) is None
    # no list under the key: nothing to judge by
    assert unadded("pyproject.toml", deps, "Add a test to the tests folder.") is None
