"""A test the task asks to add, not added (agent/tests_added)."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.tests_added import asks_new_test, changed_tests, no_test_added

TESTS = (
    "import subprocess\nimport sys\n\n\ndef test_slug():\n    assert True\n\n\n"
    "def test_prints_one_slug_a_line():\n    done = subprocess.run([sys.executable, 'slugs.py', 't.txt'])\n"
)
TASK = "Add an --output FILE option to slugs.py. Add a test for it to test_slugs.py."


def test_what_asks_for_a_new_test() -> None:
    assert asks_new_test(TASK)
    assert asks_new_test("Add a --dry-run option to tidy.py and a test for it.")
    assert asks_new_test("Write tests for parse() in test_parse.py.")
    assert not asks_new_test("Fix stats.py so that the tests pass.")
    assert not asks_new_test("Fix the bug and make the test file pass.")


def test_an_existing_test_changed_instead_of_a_new_one_is_named(tmp_path: Path) -> None:
    changed = TESTS.replace("'t.txt']", "'t.txt', '--output', 'out.txt']")
    (tmp_path / "test_slugs.py").write_text(changed)
    problem = no_test_added(TASK, tmp_path, {"test_slugs.py": TESTS})
    assert (
        "test_slugs.py" in problem
        and "test_prints_one_slug_a_line" in problem
        and "test_slug," not in problem
    )


def test_a_new_test_function_is_enough(tmp_path: Path) -> None:
    (tmp_path / "test_slugs.py").write_text(TESTS + "\n\ndef test_output_option():\n    assert True\n")
    assert no_test_added(TASK, tmp_path, {"test_slugs.py": TESTS}) == ""


def test_nothing_is_said_when_the_task_asks_no_test_or_the_file_was_not_shown(tmp_path: Path) -> None:
    (tmp_path / "test_slugs.py").write_text(TESTS)
    assert no_test_added("Add an --output option to slugs.py.", tmp_path, {"test_slugs.py": TESTS}) == ""
    assert no_test_added(TASK, tmp_path, {}) == ""


NEW_TEST = "\n\ndef test_output_option():\n    assert True\n"


def test_a_write_changing_a_test_the_file_had_is_refused_naming_it() -> None:
    changed = TESTS.replace("'t.txt']", "'t.txt', '--output', 'out.txt']")
    error = changed_tests(TASK, "test_slugs.py", TESTS, changed + NEW_TEST, {"test_slugs.py": TESTS})
    assert "test_prints_one_slug_a_line" in error and "test_slug," not in error
    assert "add a new `def test_...`" in error
    dropped = TESTS.split("\n\n\ndef test_prints")[0] + NEW_TEST
    assert "test_prints_one_slug_a_line" in changed_tests(
        TASK, "test_slugs.py", TESTS, dropped, {"test_slugs.py": TESTS}
    )


def test_a_write_keeping_the_tests_and_adding_one_runs() -> None:
    shown = {"test_slugs.py": TESTS}
    assert changed_tests(TASK, "test_slugs.py", TESTS, TESTS + NEW_TEST, shown) == ""
    reformatted = TESTS.replace("sys.executable, 'slugs.py'", "sys.executable,  'slugs.py'") + NEW_TEST
    assert changed_tests(TASK, "test_slugs.py", TESTS, reformatted, shown) == ""  # same tree


def test_tests_the_task_names_or_the_model_added_or_a_task_without_a_new_test_are_free() -> None:
    changed = TESTS.replace("'t.txt']", "'t.txt', '--output', 'out.txt']")
    shown = {"test_slugs.py": TESTS}
    named = TASK + " Make test_prints_one_slug_a_line pass --output too."
    assert changed_tests(named, "test_slugs.py", TESTS, changed, shown) == ""
    assert changed_tests("Add an --output option to slugs.py.", "test_slugs.py", TESTS, changed, shown) == ""
    assert changed_tests(TASK, "test_slugs.py", TESTS, changed, {}) == ""  # not shown with the task
    mine = TESTS + NEW_TEST  # the model's own test, changed again: its to change
    assert changed_tests(TASK, "test_slugs.py", mine, TESTS, {"test_slugs.py": TESTS}) == ""
    assert changed_tests(TASK, "slugs.py", "x = 1\n", "x = 2\n", {"slugs.py": "x = 1\n"}) == ""
