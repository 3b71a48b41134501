"""Test scaffolding a small model puts after a module's code, taken off a version of that module.

Asked for a whole new `solution.py` with its tests shown, the 1.5B often wrote the function and
then a test of it in the same file: `from solution import count_nums`, a `def check(candidate)`
or `def test_...`, top-level `assert`s and calls to them. The write tool refuses a module that
imports itself, and a call to a test helper the file does not define fails the project's tests
on import, so such a version was lost however right its function was (one of six in four of the
heldout exercises' rounds). What the original module did not have and only tests it is dropped;
the rest is the version as written. Used on Hearth's own tries (agent/versions), never on the
model's own writes, which go to the model as they are.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

_TEST_NAME = re.compile(r"^(?:test\w*|check|Test\w*)$")
_TEST_MODULES = frozenset({"unittest", "pytest", "doctest"})


def without_scaffold(text: str, original: str, path: str, task: str) -> str:
    """`text` (a version of the Python module `path`, whose text is `original`) without the test
    scaffolding it added (see the module's docstring); `text` itself when it added none, when
    either does not parse, or when taking it off would leave no definition."""
    if not path.endswith(".py") or Path(path).name.startswith("test_"):
        return text
    try:
        new, old = ast.parse(text), ast.parse(original)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    had = {_key(node) for node in old.body}
    module = Path(path).stem
    dropped = _test_definitions(new, had, task)
    names = {d.name for d in dropped if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    drop = [n for n in new.body if n in dropped or _scaffold(n, names, had, module)]
    kept = [n for n in new.body if n not in drop]
    used = {n.id for node in kept for n in ast.walk(node) if isinstance(n, ast.Name)}
    # a test function something kept still calls stays (its caller is not only a test)
    drop = [n for n in drop if getattr(n, "name", None) not in used]
    if not drop:
        return text
    drop += [n for n in kept if _unused_test_import(n, used, had)]
    if not any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for n in new.body
        if n not in drop
    ):
        return text
    return _cut(text, drop)


def _key(node: ast.stmt) -> str:
    """What tells a top-level statement of the original from a new one."""
    return ast.dump(node)


def _test_definitions(tree: ast.Module, had: set[str], task: str) -> set[ast.stmt]:
    """The top-level test functions and classes the version added that the task does not name."""
    return {
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and _TEST_NAME.match(node.name)
        and _key(node) not in had
        and not re.search(rf"(?<!\w){re.escape(node.name)}(?!\w)", task)
    }


def _scaffold(node: ast.stmt, names: set[str], had: set[str], module: str) -> bool:
    """A new top-level statement that only tests: an import of the module itself, an `assert`, a
    call of a dropped test function (`names`), or an `if __name__ == "__main__":` block of those."""
    if _key(node) in had:
        return False
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and node.module == module
    if isinstance(node, ast.Import):
        return any(alias.name == module for alias in node.names)
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return _calls_test(node.value, names)
    if isinstance(node, ast.If) and _is_main(node) and not node.orelse:
        return all(_scaffold(child, names, had, module) or _runs_tests(child, names) for child in node.body)
    return False


def _calls_test(call: ast.Call, names: set[str]) -> bool:
    """A call of a test function the version added (`check(count_nums)`), or of the test runner
    (`unittest.main()`), maybe inside a `print(...)`."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in names:
        return True
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in _TEST_MODULES
    ):
        return True
    if isinstance(func, ast.Name) and func.id == "print":
        return any(isinstance(a, ast.Call) and _calls_test(a, names) for a in call.args) and bool(call.args)
    return False


def _runs_tests(node: ast.stmt, names: set[str]) -> bool:
    """A statement of a main block that runs tests or says they passed (`print("all passed")`)."""
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    call = node.value
    said = isinstance(call.func, ast.Name) and call.func.id == "print"
    return _calls_test(call, names) or (said and all(isinstance(a, ast.Constant) for a in call.args))


def _is_main(node: ast.If) -> bool:
    test = node.test
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _unused_test_import(node: ast.stmt, used: set[str], had: set[str]) -> bool:
    """A new `import unittest` (or pytest, doctest) nothing left uses."""
    if _key(node) in had or not isinstance(node, ast.Import):
        return False
    return all(a.name in _TEST_MODULES and (a.asname or a.name) not in used for a in node.names)


def _cut(text: str, drop: list[ast.stmt]) -> str:
    """`text` without the lines of the statements in `drop` (with their decorators), and without
    the blank lines that leaves at its end."""
    lines = text.split("\n")
    gone: set[int] = set()
    for node in drop:
        decorators = getattr(node, "decorator_list", [])
        first = min([d.lineno for d in decorators] + [node.lineno])
        gone.update(range(first - 1, node.end_lineno or node.lineno))
    kept = [line for number, line in enumerate(lines) if number not in gone]
    out = re.sub(r"\n{4,}", "\n\n\n", "\n".join(kept))
    return out.rstrip() + "\n"
