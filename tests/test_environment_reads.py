"""The process environment is read in one place: settings by `load_settings`, the few other
variables Hearth honours by `hearth.core.environment`. Code elsewhere may pass the environment
on to a child process (the sandbox's, git's, the embedded server's), reading PATH and HOME for
it, but reads no variable of its own."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "hearth"
ONE_PLACE = SRC / "core" / "environment.py"
FOR_CHILDREN = {"PATH", "HOME"}  # what a child's environment is built from


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and ast.unparse(node.value) == "os"


def _reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each read of a named variable: os.environ.get("X"), os.getenv("X"),
    os.environ["X"], and any read of a variable named by a HEARTH_ string."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            target = node.func
            first = node.args[0]
            named = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if named and (
                (target.attr == "get" and _is_environ(target.value))
                or (target.attr == "getenv" and ast.unparse(target.value) == "os")
            ):
                assert isinstance(first, ast.Constant)
                found.append((node.lineno, str(first.value)))
        if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(node.ctx, ast.Load):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.append((node.lineno, key.value))
    return [(line, name) for line, name in found if name not in FOR_CHILDREN]


def test_no_module_but_the_environment_module_reads_a_variable() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        if path == ONE_PLACE:
            continue
        for line, name in _reads(ast.parse(path.read_text(), filename=str(path))):
            problems.append(f"{path.relative_to(SRC)}:{line} reads {name}")
    assert problems == []


def test_the_check_sees_a_read() -> None:
    code = 'import os\nA = os.environ.get("HEARTH_WEB_TOKEN")\nB = os.getenv("TZ")\nC = os.environ["X"]\n'
    code += 'D = os.environ.get("PATH", "")\nE = {**os.environ, "Y": "1"}\n'
    assert _reads(ast.parse(code)) == [(2, "HEARTH_WEB_TOKEN"), (3, "TZ"), (4, "X")]
