"""The write and edit tools say what is wrong with a Python file they just changed (pycheck),
and a write that would change nothing is refused (the 1.5B rewrote identical files in a loop)."""

from __future__ import annotations

import ast
import asyncio
import glob
import sysconfig
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.pycheck import python_note, undefined_names
from hearth.tools.toolset import Toolset

TOOLS = Toolset(file_tools())
NO_IMPORT = (
    "def slugify(text):\n    text = text.lower()\n    return re.sub(r'[^a-z0-9]+', '-', text).strip('-')\n"
)


def call(ws: Path, name: str, **args: object) -> str:
    tool = TOOLS.get(name)
    assert isinstance(tool, Tool)
    return asyncio.run(tool.run(tool.input_model.model_validate(args), RunContext(paths=SafePaths(ws))))


def test_a_name_never_imported_is_named_with_its_line(workspace: Path) -> None:
    out = call(workspace, "write", path="slug.py", content=NO_IMPORT)
    assert out.startswith("Created slug.py (3 lines")
    assert "Problem: slug.py uses `re` (line 3), never imported or defined" in out
    assert "NameError" in out
    fixed = call(workspace, "write", path="slug.py", content="import re\n\n\n" + NO_IMPORT)
    assert "Problem" not in fixed


def test_a_syntax_error_is_named_with_its_line(workspace: Path) -> None:
    out = call(workspace, "write", path="w.py", content="def f(x):\n    return (x + 1\n")
    assert "Problem: w.py is not valid Python (line 2" in out


def test_a_syntax_error_shows_the_lines_text() -> None:
    """Told only "line 20", the 1.5B edited other lines four times; line 20 was a stray fence."""
    note = python_note("d.py", "import csv\n\nprint(csv)\n```\n")
    assert "(line 4 '```': invalid syntax)" in note


def test_an_edit_that_breaks_the_file_is_said(workspace: Path) -> None:
    (workspace / "m.py").write_text("import os\n\nprint(os.getcwd())\n")
    call(workspace, "read", path="m.py")
    out = call(workspace, "edit", path="m.py", old="import os\n", new="")
    assert out.startswith("Edited m.py") and "`os` (line" in out


def test_correct_code_and_other_files_get_no_note(workspace: Path) -> None:
    code = (
        "import os.path as p\nfrom x import (a as b)\n\n\nclass C:\n    def m(self, *args, k=1, **kw):\n"
        "        global G\n        G = [i for i in args if i]\n        try:\n            pass\n"
        "        except OSError as e:\n            print(e, b, p, k, kw, G)\n        with open(__file__) as f:\n"
        "            return f, (lambda z: z)(1), {**kw}\n"
    )
    assert "Problem" not in call(workspace, "write", path="ok.py", content=code)
    assert "Problem" not in call(workspace, "write", path="notes.txt", content="re.sub(oops")


def test_the_standard_library_is_not_reported(workspace: Path) -> None:
    """No false alarms on real code: Python's own top-level modules (one known exception). Every
    third in name order, ssl.py always: the whole library took half a minute of the suite."""
    paths = sorted(glob.glob(sysconfig.get_paths()["stdlib"] + "/*.py"))
    reported = []
    for path in sorted({*paths[::3], *(p for p in paths if p.endswith("/ssl.py"))}):
        try:
            tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        if undefined_names(tree):
            reported.append(Path(path).name)
    assert set(reported) <= {"ssl.py"}, reported


def test_writing_what_the_file_already_holds_is_refused(workspace: Path) -> None:
    call(workspace, "write", path="a.py", content="x = 1\n")
    with pytest.raises(ToolError) as refused:
        call(workspace, "write", path="a.py", content="x = 1\n")
    assert "already has exactly this content" in str(refused.value)
    assert "and finish" in str(refused.value)
    assert call(workspace, "write", path="a.py", content="x = 2\n").startswith("Overwrote a.py")
    assert (workspace / "a.py").read_text() == "x = 2\n"


def test_code_nested_too_deep_to_parse_is_written_without_a_note(workspace: Path) -> None:
    deep = "x = " + "-" * 100_000 + "1\n"  # valid Python, but too deep for the parser's recursion
    out = call(workspace, "write", path="deep.py", content=deep)
    assert out == "Created deep.py (1 lines, 100006 bytes)." and (workspace / "deep.py").read_text() == deep


LOADER = (
    "def load_users(path):\n    users = {}\n    for line in open(path):\n"
    "        name, full = line.split(':')\n        users[name] = full\n    return users\n"
)


def test_a_parameter_the_change_stopped_using_is_named(workspace: Path) -> None:
    """Moving a loop into a helper, the 1.5B wrote `read_records("users.txt")` inside
    `load_users(path)`: every caller's file was ignored, and nothing said so."""
    (workspace / "accounts.py").write_text(LOADER)
    call(workspace, "read", path="accounts.py")
    fixed_path = (
        "def read_records(path):\n    return [line.split(':') for line in open(path)]\n\n\n"
        "def load_users(path):\n    return dict(read_records('users.txt'))\n"
    )
    out = call(workspace, "write", path="accounts.py", content=fixed_path)
    assert "Problem: in accounts.py, load_users() ignores its parameter `path`" in out
    right = fixed_path.replace("read_records('users.txt')", "read_records(path)")
    assert "Problem" not in call(workspace, "write", path="accounts.py", content=right)
    # an edit is judged the same way; a parameter ignored before as well is not news
    edited = call(
        workspace,
        "edit",
        path="accounts.py",
        old="dict(read_records(path))",
        new="dict(read_records('a.txt'))",
    )
    assert "ignores its parameter `path`" in edited
    (workspace / "hook.py").write_text("def handler(signum, frame):\n    return 1\n")
    call(workspace, "read", path="hook.py")
    assert "Problem" not in call(
        workspace, "write", path="hook.py", content="def handler(signum, frame):\n    return 2\n"
    )


def test_a_parameter_read_outside_its_function_is_named(workspace: Path) -> None:
    """Moving argparse code into `parse_args(argv)`, the 1.5B left `args = parse_args(argv)` in
    `main()`, which has no `argv`: a NameError on every run, and the run exited 0."""
    moved = (
        "import argparse\n\n\ndef parse_args(argv):\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('name')\n    return parser.parse_args(argv)\n\n\n"
        "def main():\n    args = parse_args(argv)\n    print(args.name)\n"
    )
    out = call(workspace, "write", path="cli.py", content=moved)
    assert "Problem: cli.py uses `argv` (line 11), never imported or defined" in out
    fixed = moved.replace("def main():", "def main(argv=None):")
    assert "Problem" not in call(workspace, "write", path="cli.py", content=fixed)
    # read inside its own function, a nested one, or a lambda: bound
    inner = "def f(x):\n    def g():\n        return x\n    return g() + (lambda y: y)(x)\n"
    assert undefined_names(ast.parse(inner)) == []
