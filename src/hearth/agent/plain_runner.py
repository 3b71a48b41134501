"""The project's tests without pytest: run as `python3 -` inside the sandbox when the sandbox's
Python has no pytest (agent/done sends this file's text; nothing imports it).

It runs the `test_*` functions of the test files (with at most one `parametrize` list, and
the fixtures `tmp_path`, `capsys`, `monkeypatch` and those the file or a `conftest.py` defines
with `pytest.fixture`), and their `unittest` cases. A test file that does `import pytest` gets a
small stand-in with `raises`, `approx`, `fail`, `skip`, `mark` and `fixture`, so a project's
tests are judged on their own asserts, not on the sandbox's packages. A test that wants what this
runner cannot give is not run, and said so. Prints what failed and "N passed, M failed" (", K not
run"); exits 1 on a failure, 5 when nothing ran (as pytest does).
"""

from __future__ import annotations

import ast
import builtins
import collections
import contextlib
import importlib.util
import inspect
import io
import linecache
import math
import os
import pathlib
import re
import shutil
import sys
import tempfile
import traceback
import types
import unittest
from collections.abc import Callable, Iterator
from typing import Any

SKIPPED_PARTS = ("venv", "node_modules", "site-packages")


class Skipped(Exception):
    """pytest.skip(): the test does not count."""


class NotRun(Exception):
    """The test wants a fixture this runner does not have."""


Captured = collections.namedtuple("Captured", "out err")


class Capsys:
    """pytest's `capsys`: what the test printed, read with `readouterr()`."""

    def __init__(self) -> None:
        self.saved = (sys.stdout, sys.stderr)
        self.out, self.err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = self.out, self.err
        self.open = True

    def readouterr(self) -> Captured:
        if not self.open:  # after the test (a failed assert's sides are evaluated again then)
            raise RuntimeError("capsys is closed")
        got = Captured(self.out.getvalue(), self.err.getvalue())
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        return got

    def close(self) -> None:
        sys.stdout, sys.stderr = self.saved
        self.open = False


class MonkeyPatch:
    """pytest's `monkeypatch`: changes undone after the test."""

    def __init__(self) -> None:
        self.undo: list[Callable[[], None]] = []

    def setattr(self, target: Any, name: Any, value: Any = None, raising: bool = True) -> None:
        if isinstance(target, str):  # setattr("package.module.name", value)
            module_name, _, attribute = target.rpartition(".")
            target, name, value = importlib.import_module(module_name), attribute, name
        old = getattr(target, name) if raising or hasattr(target, name) else None
        had = hasattr(target, name)
        setattr(target, name, value)
        self.undo.append(lambda: setattr(target, name, old) if had else delattr(target, name))

    def delattr(self, target: Any, name: str, raising: bool = True) -> None:
        if not hasattr(target, name) and not raising:
            return
        old = getattr(target, name)
        delattr(target, name)
        self.undo.append(lambda: setattr(target, name, old))

    def setitem(self, mapping: Any, key: Any, value: Any) -> None:
        had, old = key in mapping, mapping.get(key)
        mapping[key] = value
        self.undo.append(lambda: mapping.__setitem__(key, old) if had else mapping.pop(key, None))

    def delitem(self, mapping: Any, key: Any, raising: bool = True) -> None:
        if key not in mapping and not raising:
            return
        old = mapping.pop(key)
        self.undo.append(lambda: mapping.__setitem__(key, old))

    def setenv(self, name: str, value: str, prepend: str | None = None) -> None:
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self.setitem(os.environ, name, str(value))

    def delenv(self, name: str, raising: bool = True) -> None:
        self.delitem(os.environ, name, raising)

    def chdir(self, path: Any) -> None:
        old = os.getcwd()
        os.chdir(path)
        self.undo.append(lambda: os.chdir(old))

    def syspath_prepend(self, path: Any) -> None:
        sys.path.insert(0, str(path))
        self.undo.append(lambda: sys.path.remove(str(path)))

    def close(self) -> None:
        while self.undo:
            self.undo.pop()()


class Fixtures:
    """The values of one test's fixtures, made on demand and closed after it."""

    def __init__(self, defined: dict[str, Callable[..., Any]]) -> None:
        self.defined, self.made, self.closers = defined, dict[str, Any](), list[Callable[[], object]]()

    def value(self, name: str) -> Any:
        if name not in self.made:
            self.made[name] = self.make(name)
        return self.made[name]

    def make(self, name: str) -> Any:
        if name in self.defined:
            maker = self.defined[name]
            given = {n: self.value(n) for n in inspect.signature(maker).parameters}
            got = maker(**given)
            if inspect.isgenerator(got):  # a yield fixture: what follows the yield is its teardown
                self.closers.append(lambda: next(got, None))
                return next(got)
            return got
        if name == "tmp_path":
            folder = tempfile.mkdtemp(prefix="test-")
            self.closers.append(lambda: shutil.rmtree(folder, ignore_errors=True))
            return pathlib.Path(folder)
        if name in ("capsys", "monkeypatch"):
            made = Capsys() if name == "capsys" else MonkeyPatch()
            self.closers.append(made.close)
            return made
        raise NotRun(f"it needs the fixture {name!r}, which this runner does not have")

    def close(self) -> None:
        while self.closers:
            with contextlib.suppress(Exception):
                self.closers.pop()()


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


def fixture(*args: Any, **kwargs: Any) -> Any:
    """pytest.fixture, with or without arguments: marks a function as a fixture."""

    def mark(maker: Any) -> Any:
        maker.hearth_fixture = kwargs.get("name") or maker.__name__
        return maker

    if len(args) == 1 and callable(args[0]) and not kwargs:
        return mark(args[0])
    return mark


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
            ("fixture", fixture),
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
    """The parametrized argument sets to call `test` with (the rest of its parameters are
    fixtures); None when it has several parametrize lists, which this runner does not combine."""
    marked = getattr(test, "hearth_cases", [])
    if not marked:
        return [{}]
    if len(marked) != 1:
        return None
    names, values = marked[0]
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    return [dict(zip(names, v if len(names) > 1 else [v])) for v in values]  # noqa: B905  (any Python 3)


def defined_fixtures(*modules: Any) -> dict[str, Callable[..., Any]]:
    """The fixtures `pytest.fixture` marked in these modules (later ones win, as a test file's own
    fixture wins over a conftest's)."""
    found: dict[str, Callable[..., Any]] = {}
    for module in modules:
        for value in vars(module).values():
            name = getattr(value, "hearth_fixture", None)
            if isinstance(name, str) and callable(value):
                found[name] = getattr(value, "__wrapped__", value)
    return found


CONFTESTS: dict[pathlib.Path, Any] = {}


def conftests(path: pathlib.Path) -> list[Any]:
    """The loaded `conftest.py` modules from the project's top down to `path`'s folder."""
    loaded = []
    for folder in [*reversed(path.parents)]:
        conftest = folder / "conftest.py"
        if conftest not in CONFTESTS:
            CONFTESTS[conftest] = load(conftest) if conftest.is_file() else None
        if CONFTESTS[conftest] is not None:
            loaded.append(CONFTESTS[conftest])
    return loaded


def load(path: pathlib.Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_files() -> Iterator[pathlib.Path]:
    for path in sorted(pathlib.Path(".").rglob("*.py")):
        if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
            continue
        if any(part.startswith(".") or part in SKIPPED_PARTS for part in path.parts):
            continue
        yield path


def run_test(test: Callable[..., Any], arguments: dict[str, Any], label: str, counts: dict[str, int]) -> None:
    """One call of a test, its fixtures made before and closed after (before anything is
    printed: `capsys` holds the output while the test runs)."""
    fixtures = Fixtures(getattr(test, "hearth_defined", {}))
    try:
        wanted = [n for n in inspect.signature(test).parameters if n not in arguments]
        given = dict(arguments)
        given.update((n, fixtures.value(n)) for n in wanted)
        test(**given)
        fixtures.close()
        counts["passed"] += 1
    except Skipped:
        fixtures.close()
    except NotRun as exc:
        fixtures.close()
        counts["not run"] += 1
        print(f"NOT RUN {label}: {exc}")
    except Exception:
        fixtures.close()
        counts["failed"] += 1
        print(f"FAILED {label}")
        show(-2)


def run_file(path: pathlib.Path, counts: dict[str, int]) -> None:
    try:
        module = load(path)
        defined = defined_fixtures(*conftests(path), module)
    except Exception:
        counts["failed"] += 1
        print(f"ERROR collecting {path}")
        show(-3)
        return
    for name, test in list(vars(module).items()):
        if not (name.startswith("test") and inspect.isfunction(test)) or name in defined:
            continue
        setattr(test, "hearth_defined", defined)  # noqa: B010  (read back by run_test)
        all_cases = cases(test)
        if all_cases is None:
            counts["not run"] += 1
            print(f"NOT RUN {path}::{name}: it has several parametrize lists")
        for arguments in all_cases or []:
            run_test(test, arguments, f"{path}::{name}{list(arguments.values()) or ''}", counts)
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
    counts = {"passed": 0, "failed": 0, "not run": 0}
    for path in test_files():
        run_file(path, counts)
    not_run = f", {counts['not run']} not run" if counts["not run"] else ""
    print(f"{counts['passed']} passed, {counts['failed']} failed{not_run}")
    sys.exit(1 if counts["failed"] else 0 if counts["passed"] else 5)


if __name__ == "__main__":
    main()
