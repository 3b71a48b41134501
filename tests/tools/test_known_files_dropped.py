"""Which lines a rewrite of a file drops outright (the change guard refuses such a write once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.tools.known_files import KnownFiles, dropped_lines


def test_a_stubs_placeholder_body_is_replaced_not_dropped() -> None:
    stub = 'def double(x):\n    """Twice x."""\n    raise NotImplementedError\n'
    assert dropped_lines(stub, 'def double(x):\n    """Twice x."""\n    return 2 * x\n') == []
    assert dropped_lines("def f():\n    pass\n", "def f():\n    return sorted(xs, key=len)\n") == []


def test_a_name_or_key_given_a_new_value_is_changed_in_place() -> None:
    old = "BASE_URL = 'http://localhost:8000/api'\nprint(BASE_URL)\n"
    new = "import json\n\nBASE_URL = json.load(open('config.json'))['BASE_URL']\nprint(BASE_URL)\n"
    assert dropped_lines(old, new) == []
    assert (
        dropped_lines('{\n  "port": 8000\n}\n', '{\n  "port": "from the environment, see below"\n}\n') == []
    )


def test_a_section_left_out_is_still_dropped() -> None:
    old = "[server]\nhost = 127.0.0.1\nport = 8000\n\n[database]\npath = data/app.db\n"
    new = "[server]\nhost = 127.0.0.1\nport = 9090\n"
    assert dropped_lines(old, new) == ["[database]", "path = data/app.db"]


def test_a_line_with_one_name_changed_is_changed_not_dropped() -> None:
    """A rename written as the whole file: `class TempReading:` became `class Measurement:`."""
    old = "class TempReading:\n    pass\n\n\ndef parse(x):\n    return TempReading()\n"
    assert dropped_lines(old, old.replace("TempReading", "Measurement")) == []


def test_a_module_written_over_with_text_that_imports_it_is_refused(tmp_path: Path) -> None:
    """The 1.5B wrote the test file's text (`from durations import parse_duration` and the tests)
    over durations.py, the module the tests import."""
    module = "def parse(text):\n    return int(text)\n"
    tests = "from durations import parse\n\n\ndef test_parse():\n    assert parse('4') == 4\n"
    known = KnownFiles()
    with pytest.raises(ToolError, match="imports durations itself"):
        known.check_overwrite(tmp_path / "durations.py", module, tests, "durations.py")
    known.check_overwrite(
        tmp_path / "durations.py", module, "def parse(text):\n    return int(text or 0)\n", "durations.py"
    )
    known.check_overwrite(
        tmp_path / "test_durations.py", tests, tests + "\n\ndef test_zero():\n    pass\n", "test_durations.py"
    )


def test_a_file_shown_with_the_task_is_judged_by_its_result_when_it_is_python(tmp_path: Path) -> None:
    """A fix of a shown Python file replaces the wrong line and goes through at once; a shown
    text file written without one of its lines is still refused (once)."""
    from hearth.sandbox.paths import SafePaths

    bug = "def median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n"
    fixed = "def median(xs):\n    xs = sorted(xs)\n    n = len(xs)\n    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2\n"
    notes = "# Notes\n\nbuy milk\ncall the plumber on Monday\n"
    (tmp_path / "stats.py").write_text(bug)
    (tmp_path / "notes.md").write_text(notes)
    paths = SafePaths(tmp_path)
    known = KnownFiles(strict=True)
    for name in ("stats.py", "notes.md"):
        known.note(paths, paths.resolve(name), shown=True)
    assert dropped_lines(bug, fixed)  # the old line is gone: the guard would have refused it
    known.check_overwrite(paths.resolve("stats.py"), bug, fixed, "stats.py")
    with pytest.raises(ToolError, match="would drop 1 of the 3 lines"):
        known.check_overwrite(paths.resolve("notes.md"), notes, "# Notes\n\nbuy milk\n", "notes.md")


def test_a_rewrite_without_the_line_the_task_says_to_remove_goes_through(tmp_path: Path) -> None:
    """The 1.5B's right rewrite of requirements.txt without `six==1.16.0` ("remove six") was
    refused once as dropping a line; a line left out that the task does not name still is."""
    from hearth.sandbox.paths import SafePaths

    pins = "click==8.1.7\nsix==1.16.0\nwhitenoise==6.6.0\n"
    (tmp_path / "requirements.txt").write_text(pins)
    paths = SafePaths(tmp_path)
    known = KnownFiles(strict=True, task="In requirements.txt, upgrade click, remove six, and add requests.")
    known.note(paths, paths.resolve("requirements.txt"), shown=True)
    right = "click==8.2.0\nrequests==2.32.3\nwhitenoise==6.6.0\n"
    known.check_overwrite(paths.resolve("requirements.txt"), pins, right, "requirements.txt")
    with pytest.raises(ToolError, match="would drop 1 of the 3 lines"):
        known.check_overwrite(
            paths.resolve("requirements.txt"), pins, "click==8.2.0\nsix==1.16.0\n", "requirements.txt"
        )
