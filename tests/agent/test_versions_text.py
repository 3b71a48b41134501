"""What a version request shows of a Python file (agent/versions)."""

from __future__ import annotations

import ast

from hearth.agent.docstrings import docstrings_back, without_docstrings
from hearth.agent.versions import is_test_file

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


def test_a_version_written_without_docstrings_gets_them_back() -> None:
    """Asked for without them, the model writes code alone: the file keeps its spec, each
    docstring under the definition it documented, indented as that code is."""
    version = (
        "def strange(lst):\n"
        "  out = sorted(lst)\n"  # two spaces: the docstring follows the code's indentation
        "  return out[::2] + out[1::2]\n\n\n"
        "class Box:\n    size = 2\n\n    def grow(self):\n        return 3\n"
    )
    back = docstrings_back(version, STUB)
    ast.parse(back)
    assert back.startswith(
        '"""Exercises."""\ndef strange(lst):\n  """\n  Given a list, return it in strange order.'
    )
    assert '  strange([1, 2, 3]) == [1, 3, 2]\n  """\n  out = sorted(lst)' in back
    assert 'class Box:\n    """A box."""\n    size = 2' in back
    assert "def grow(self):\n        return 3" in back  # a new definition: nothing to give back
    assert without_docstrings(back)[1] == without_docstrings(STUB)[1]


def test_docstrings_the_version_has_or_cannot_hold_are_left_alone() -> None:
    kept = 'def strange(lst):\n    """Its own words."""\n    return lst[::-1]\n'
    assert docstrings_back(kept, STUB) == '"""Exercises."""\n' + kept
    one_line = "def strange(lst): return lst[::-1]\n"
    assert docstrings_back(one_line, STUB) == '"""Exercises."""\n' + one_line
    assert docstrings_back("def strange(lst:\n", STUB) == "def strange(lst:\n"  # not Python: as it is
