"""A test the task asks to add, not added (agent/tests_added)."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.tests_added import asks_new_test, no_test_added

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
