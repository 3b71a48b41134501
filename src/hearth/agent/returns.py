"""A function the task says returns something, left returning nothing.

"Split main() into load(path), which returns the rows ..., and render(rows), which returns the
whole report as one string, so that main() just prints render(load(path))": the 1.5B's render
printed the report and returned nothing. The script printed the same as before, so the task's
command passed, and the run ended 0. What a function returns is the point of such a task, and a
function the task says returns a value has at least one `return` with a value (or a `yield`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from hearth.agent.leftovers import read_text_file
from hearth.prompts import render

# "render(rows), which returns", "`load` returns", "make total return", "f should return"
_RETURNS = re.compile(
    r"`?\b([A-Za-z_]\w*)(?:\([^()\n]*\))?`?,?\s+(?:(?:which|that)\s+)?(?:returns|should\s+return|must\s+return)\b"
    r"|\bmake\s+`?([A-Za-z_]\w*)(?:\([^()\n]*\))?`?\s+return\b",
    re.IGNORECASE,
)
_NOT_NAMES = {"it", "this", "that", "which", "function", "method", "and", "also", "now", "then", "so"}


def said_to_return(task: str) -> list[str]:
    """The functions the task says return something, each once."""
    found: list[str] = []
    for match in _RETURNS.finditer(task):
        name = match.group(1) or match.group(2)
        if name.lower() not in _NOT_NAMES and name not in found:
            found.append(name)
    return found


def returns_nothing(task: str, root: Path, files: Sequence[str]) -> str:
    """The finish review's problem when a function the task says returns something is defined in
    one of `files` (Python files, workspace paths) and returns nothing there; "" otherwise."""
    names = said_to_return(task)
    if not names:
        return ""
    for rel in files:
        text = read_text_file(root / rel) if rel.endswith(".py") else None
        try:
            tree = ast.parse(text) if text is not None else None
        except (SyntaxError, ValueError):
            continue  # a broken file is another problem's
        for function in _functions(tree, names):
            if not _gives_value(function):
                return render("finish_problem_returns_nothing", function=function.name, path=rel)
    return ""


def _functions(tree: ast.AST | None, names: list[str]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The definitions in `tree` of the functions named in `names`."""
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            yield node


def _gives_value(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function's own body (not a nested one's) returns a value or yields."""
    for node in _own(function.body):
        value = node.value if isinstance(node, ast.Return) else None
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            return True
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
    return False


def _own(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of `body`, not entering nested functions, lambdas or classes."""
    nested = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
    stack: list[ast.AST] = [node for node in body if not isinstance(node, nested)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, nested))
