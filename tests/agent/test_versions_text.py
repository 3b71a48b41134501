"""What a version request shows of a Python file (agent/versions)."""

from __future__ import annotations

import ast

from hearth.agent.versions import is_test_file, without_docstrings

STUB = '''"""Exercises."""


def strange(lst):
    """
    Given a list, return it in strange order.

    strange([1, 2, 3]) == [1, 3, 2]
    """
    return lst


class Box:
    """A box."""

    size = 1
'''


def test_docstrings_are_taken_out_and_said_apart() -> None:
    code, docs = without_docstrings(STUB)
    assert '"""' not in code and "strange([1, 2, 3])" not in code
    assert "def strange(lst):\n    return lst" in code and "class Box:" in code and "size = 1" in code
    ast.parse(code)  # what is left is still Python
    assert docs == [
        "Exercises.",
        "Given a list, return it in strange order.\n\nstrange([1, 2, 3]) == [1, 3, 2]",
        "A box.",
    ]


def test_a_file_that_does_not_parse_is_shown_as_it_is() -> None:
    broken = 'def f(:\n    """doc"""\n'
    assert without_docstrings(broken) == (broken, [])


def test_test_files_are_never_varied() -> None:
    assert is_test_file("test_stats.py") and is_test_file("pkg/stats_test.py") and is_test_file("conftest.py")
    assert (
        not is_test_file("stats.py") and not is_test_file("testing.py") and not is_test_file("test_data.txt")
    )
