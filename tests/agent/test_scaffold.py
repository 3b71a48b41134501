"""A version of a module with a test of it appended loses the test, keeps the module (agent/scaffold)."""

from __future__ import annotations

import ast

from hearth.agent.scaffold import without_scaffold

ORIGINAL = '''def count_nums(arr):
    """Count the numbers whose digit sum is above zero."""
'''

FUNCTION = '''def count_nums(arr):
    """Count the numbers whose digit sum is above zero."""
    return sum(1 for n in arr if n > 0)
'''

TASK = "Implement the function count_nums in solution.py so that the tests in test_solution.py pass."


def test_a_self_import_a_check_function_and_its_call_are_taken_off() -> None:
    version = (
        FUNCTION
        + """

from solution import count_nums


def check(candidate):
    assert candidate([]) == 0
    assert candidate([1, 1, 2]) == 3


check(count_nums)
"""
    )
    assert without_scaffold(version, ORIGINAL, "solution.py", TASK) == FUNCTION


def test_top_level_asserts_and_a_main_block_running_tests_are_taken_off() -> None:
    version = (
        FUNCTION
        + """
def test_count_nums():
    assert count_nums([1]) == 1


assert count_nums([]) == 0

if __name__ == "__main__":
    test_count_nums()
    print("all passed")
"""
    )
    assert without_scaffold(version, ORIGINAL, "solution.py", TASK) == FUNCTION
    # a main block that does more than run tests stays, and so does the test function it calls
    version = version.replace('print("all passed")', "print(count_nums([4, -1]))")
    kept = without_scaffold(version, ORIGINAL, "solution.py", TASK)
    assert "assert count_nums([]) == 0" not in kept and "def test_count_nums" in kept
    assert "print(count_nums([4, -1]))" in kept
    ast.parse(kept)

    version = (
        FUNCTION
        + """
import unittest


class TestCountNums(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(count_nums([]), 0)


if __name__ == "__main__":
    unittest.main()
"""
    )
    assert without_scaffold(version, ORIGINAL, "solution.py", TASK) == FUNCTION


def test_what_the_original_had_or_the_task_names_stays() -> None:
    original = (
        ORIGINAL
        + """

def check(value):
    return value >= 0
"""
    )
    version = (
        FUNCTION
        + """

def check(value):
    return value >= 0


check(3)
"""
    )
    # check() was the module's own: neither it nor its call is scaffolding
    assert without_scaffold(version, original, "solution.py", TASK) == version
    named = FUNCTION + "\n\ndef test_input(arr):\n    return bool(arr)\n"
    task = "Add a function test_input(arr) to solution.py that says whether arr has items."
    assert without_scaffold(named, ORIGINAL, "solution.py", task) == named


def test_a_version_that_is_only_a_test_or_a_test_file_is_left_as_written() -> None:
    only_tests = "from solution import count_nums\n\n\ndef test_it():\n    assert count_nums([]) == 0\n"
    # nothing of the module would be left: the write tool's guard tells the model what it is
    assert without_scaffold(only_tests, ORIGINAL, "solution.py", TASK) == only_tests
    assert without_scaffold(only_tests, ORIGINAL, "test_solution.py", TASK) == only_tests
    assert without_scaffold("def broken(:\n", ORIGINAL, "solution.py", TASK) == "def broken(:\n"
    script = FUNCTION + "\nprint(count_nums([1, 2]))\n"
    # a script's own output is not a test
    assert without_scaffold(script, ORIGINAL, "solution.py", TASK) == script
