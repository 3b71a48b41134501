"""The project's tests without pytest: run as `python3 -` inside the sandbox when the sandbox's
Python has no pytest (agent/done sends this file's text; nothing imports it).

It runs the parameterless `test_*` functions of the test files (and those with one
`parametrize` list), and their `unittest` cases. A test file that does `import pytest` gets a
small stand-in with `raises`, `approx`, `fail`, `skip` and `mark`, so a project's tests are
judged on their own asserts, not on the sandbox's packages. Prints what failed and
"N passed, M failed"; exits 1 on a failure, 5 when nothing ran (as pytest does).
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import inspect
import linecache
import math
import pathlib
import re
import sys
import traceback
import types
import unittest
from collections.abc import Callable, Iterator
from typing import Any

SKIPPED_PARTS = ("venv", "node_modules", "site-packages")


class Skipped(Exception):
    """pytest.skip(): the test does not count."""


class Raises:
    def __init__(self, kind: type[BaseException], match: str | None = None) -> None:
        self.kind, self.match = kind, match
        self.value: BaseException | None = None

    def __enter__(self) -> Raises:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: object) -> bool:
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.kind}")
        if not issubclass(kind, self.kind):
            return False
        if self.match and not re.search(self.match, str(value)):
            raise AssertionError(f"{str(value)!r} does not match {self.match!r}")
        self.value = value
        return True


class Approx:
    def __init__(self, expected: float, rel: float = 1e-6, tolerance: float = 1e-12, **named: float) -> None:
        self.expected, self.rel, self.tolerance = expected, rel, named.get("abs", tolerance)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, int | float):
            return False
        # no lone multiplication sign anywhere in this file: its whole text is the shell command,
        # and a lone star reads as a glob that may name a secret (where no sandbox hides them, asked)
        margin = max(math.prod((self.rel, builtins.abs(self.expected))), self.tolerance)
        return builtins.abs(other - self.expected) <= margin

    def __repr__(self) -> str:
        return f"approx({self.expected!r})"


class Mark:
    """pytest.mark.NAME(...) leaves the test as it is; parametrize keeps its cases."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name == "parametrize":
            return parametrize
        return marker


def marker(*args: Any, **kwargs: Any) -> Any:
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda test: test


def parametrize(names: str | list[str], values: list[Any], **kwargs: Any) -> Callable[[Any], Any]:
    def keep(test: Any) -> Any:
        test.hearth_cases = [*getattr(test, "hearth_cases", []), (names, list(values))]
        return test

    return keep


def fail(reason: str = "") -> None:
    raise AssertionError(reason)


def skip(reason: str = "") -> None:
    raise Skipped(reason)


def stand_in() -> None:
    """A `pytest` module for test files that import it, when the real one is not there."""
    try:
        import pytest  # noqa: F401
    except ImportError:
        module = types.ModuleType("pytest")
        for name, value in (
            ("raises", Raises),
            ("approx", Approx),
            ("mark", Mark()),
            ("fail", fail),
            ("skip", skip),
        ):
            setattr(module, name, value)
        sys.modules["pytest"] = module


def show(limit: int) -> None:
    lines = traceback.format_exc(limit=limit).splitlines()[1:]
    print("\n".join(line for line in lines if "<stdin>" not in line))
    compared = failed_comparison(sys.exc_info()[2])
    if compared:
        print(compared)


def failed_comparison(tb: types.TracebackType | None) -> str:
    """For a failed `assert left == right`: both sides' values, as pytest shows them (what the
    function under test returned is what a model fixing it needs to see)."""
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    line = linecache.getline(frame.f_code.co_filename, tb.tb_lineno).strip()
    try:
        node = ast.parse(line).body[0]
    except (SyntaxError, IndexError):
        return ""
    if not (isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1):
        return ""
    sides = (node.test.left, node.test.comparators[0])
    try:
        # the test's own expressions, evaluated again where the test ran (in the sandbox)
        left, right = (eval(ast.unparse(side), frame.f_globals, frame.f_locals) for side in sides)
    except Exception:
        return ""
    return (
        f"  left:  {ast.unparse(sides[0])} = {left!r:.300}\n  right: {ast.unparse(sides[1])} = {right!r:.300}"
    )


def cases(test: Callable[..., Any]) -> list[dict[str, Any]] | None:
    """The argument sets to call `test` with; None when it wants what this runner cannot give
    (fixtures, several parametrize lists)."""
    wanted = list(inspect.signature(test).parameters)
    if not wanted:
        return [{}]
    marked = getattr(test, "hearth_cases", [])
    if len(marked) != 1:
        return None
    names, values = marked[0]
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    if sorted(names) != sorted(wanted):
        return None
    return [dict(zip(names, v if len(names) > 1 else [v])) for v in values]  # noqa: B905  (any Python 3)


def test_files() -> Iterator[pathlib.Path]:
    for path in sorted(pathlib.Path(".").rglob("*.py")):
        if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
            continue
        if any(part.startswith(".") or part in SKIPPED_PARTS for part in path.parts):
            continue
        yield path


def run_file(path: pathlib.Path, counts: dict[str, int]) -> None:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:
        counts["failed"] += 1
        print(f"ERROR collecting {path}")
        show(-3)
        return
    for name, test in list(vars(module).items()):
        if not (name.startswith("test") and inspect.isfunction(test)):
            continue
        for arguments in cases(test) or []:
            try:
                test(**arguments)
                counts["passed"] += 1
            except Skipped:
                pass
            except Exception:
                counts["failed"] += 1
                print(f"FAILED {path}::{name}{list(arguments.values()) or ''}")
                show(-2)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    if suite.countTestCases():
        result = unittest.TextTestRunner(stream=sys.stdout, verbosity=0).run(suite)
        wrong = len(result.failures) + len(result.errors)
        counts["passed"] += result.testsRun - wrong - len(result.skipped)
        counts["failed"] += wrong


def main() -> None:
    sys.dont_write_bytecode = True
    sys.path.insert(0, ".")
    stand_in()
    counts = {"passed": 0, "failed": 0}
    for path in test_files():
        run_file(path, counts)
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    sys.exit(1 if counts["failed"] else 0 if counts["passed"] else 5)


if __name__ == "__main__":
    main()
