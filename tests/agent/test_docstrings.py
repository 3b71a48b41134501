"""A task asking docstrings only: the model's docstrings go on the file's own code."""

from __future__ import annotations

import ast

import pytest

from hearth.agent.docstrings import asks_docstrings_only, onto_code

SHAPES = '''import math


def area(r):
    return math.pi * r * r


class Box:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def size(self):
        """The box's area."""
        return self.w * self.h


if __name__ == "__main__":
    print(area(2))
'''
# good docstrings, and the code changed with them: a formula, a return, the main block gone
WRITTEN = '''import math

def area(r):
    """Area of a circle of radius r, in square units."""
    return math.pi * r ** 2

class Box:
    """A w by h box."""
    def __init__(self, w, h):
        """Make a box w wide and h high."""
        self.w = w
        self.h = h

    def size(self):
        return self.w * self.h + 0
'''


def _docs(source: str) -> dict[str, str | None]:
    tree = ast.parse(source)
    return {
        getattr(n, "name", ""): ast.get_docstring(n)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
    }


def test_the_written_docstrings_go_on_the_files_own_code() -> None:
    grafted = onto_code(WRITTEN, SHAPES)
    assert grafted is not None
    assert (
        grafted.replace('    """Area of a circle of radius r, in square units."""\n', "")
        .replace('    """A w by h box."""\n', "")
        .replace('        """Make a box w wide and h high."""\n', "")
        == SHAPES
    )
    docs = _docs(grafted)
    assert docs["area"] == "Area of a circle of radius r, in square units."
    assert docs["Box"] == "A w by h box." and docs["__init__"] == "Make a box w wide and h high."
    assert docs["size"] == "The box's area."  # the file's own, which the text left out


def test_a_text_that_keeps_the_code_is_taken_as_it_is() -> None:
    same_code = SHAPES.replace("def area(r):\n", 'def area(r):\n    """Area."""\n')
    assert onto_code(same_code, SHAPES) is None
    assert onto_code("def broken(:\n", SHAPES) is None


@pytest.mark.parametrize(
    ("task", "only"),
    [
        ("Add a docstring to each function in shapes.py. Do not change any of the code itself.", True),
        ("Write docstrings for stats.py without changing the code.", True),
        ("Add only the docstrings to util.py; the code stays as it is.", True),
        ("Add docstrings to shapes.py and fix the area formula.", False),
        ("Fix the bug in x.py without changing the tests.", False),
        ("Do not change the code in a.py; add a README.md.", False),
    ],
)
def test_a_task_asks_docstrings_only_when_it_says_the_code_stays(task: str, only: bool) -> None:
    assert asks_docstrings_only(task) is only
