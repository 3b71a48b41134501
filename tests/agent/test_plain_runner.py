"""The tests' runner for a sandbox whose Python has no pytest: a project's tests that import
pytest are judged on their own asserts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hearth.agent.done import PLAIN_RUNNER, PYTEST
from hearth.sandbox.secrets import command_names_secret

TESTS = """import pytest

from batching import chunk


def test_even():
    assert chunk([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_last_is_shorter():
    assert chunk([1, 2, 3], 2) == [[1, 2], [3]]


def test_bad_size():
    with pytest.raises(ValueError, match="size"):
        chunk([1], 0)


@pytest.mark.parametrize("n, expected", [(1, [[1]]), (2, [[1]])])
def test_one_item(n, expected):
    assert chunk([1], n) == expected


def test_close():
    assert 0.1 + 0.2 == pytest.approx(0.3)


def test_uses_a_fixture(tmp_path):
    assert tmp_path.is_dir() and not any(tmp_path.iterdir())
"""
FIXTURES = """import os
import sys

import pytest

import shout


@pytest.fixture
def word():
    return "hi"


@pytest.fixture()
def loud(word, monkeypatch):
    monkeypatch.setenv("SHOUT_MARK", "!")
    yield word.upper()
    print("torn down", file=sys.stderr)


def test_prints_the_word_loudly(loud, capsys, tmp_path):
    (tmp_path / "in.txt").write_text(loud)
    shout.main([str(tmp_path / "in.txt")])
    assert capsys.readouterr().out == "HI!\\n"


@pytest.mark.parametrize("text", ["a", "b"])
def test_each(text, word):
    assert shout.mark(text) == text + "!"


def test_the_environment_was_put_back():
    assert "SHOUT_MARK" not in os.environ


def test_wants_what_no_one_gives(database):
    assert database
"""
SHOUT = """import os


def mark(text):
    return text + os.environ.get("SHOUT_MARK", "!")


def main(argv):
    with open(argv[0]) as fh:
        print(mark(fh.read().strip()))
"""
WRONG = """def chunk(items, size):
    if size < 1:
        raise ValueError("size must be at least 1")
    return [items[i : i + size] for i in range(0, len(items) - size + 1, size)]
"""
RIGHT = WRONG.replace("len(items) - size + 1", "len(items)")


def run(folder: Path) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so no pytest, as with a sandbox's system Python
    return subprocess.run(
        [sys.executable, "-S", "-"],
        input=PLAIN_RUNNER,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_tests_that_import_pytest_run_without_it_and_a_wrong_module_fails_them(tmp_path: Path) -> None:
    (tmp_path / "test_batching.py").write_text(TESTS)
    (tmp_path / "batching.py").write_text(WRONG)
    wrong = run(tmp_path)
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert "FAILED test_batching.py::test_last_is_shorter" in wrong.stdout
    # what the function returned, beside what the test wanted, as pytest would show it
    assert "left:  chunk([1, 2, 3], 2) = [[1, 2]]\n  right: [[1, 2], [3]] = [[1, 2], [3]]" in wrong.stdout
    assert "ERROR collecting" not in wrong.stdout
    assert wrong.stdout.strip().endswith("5 passed, 2 failed")  # one parametrize case fails too
    (tmp_path / "batching.py").write_text(RIGHT)
    right = run(tmp_path)
    assert right.returncode == 0, right.stdout + right.stderr
    assert right.stdout.strip().endswith("7 passed, 0 failed")


def test_tests_get_their_fixtures_and_a_wrong_output_fails_them(tmp_path: Path) -> None:
    (tmp_path / "test_shout.py").write_text(FIXTURES)
    (tmp_path / "shout.py").write_text(SHOUT)
    right = run(tmp_path)
    assert right.returncode == 0, right.stdout + right.stderr
    # a test whose fixture no one defines is said, not counted as passed
    assert (
        "NOT RUN test_shout.py::test_wants_what_no_one_gives: it needs the fixture 'database'" in right.stdout
    )
    assert right.stdout.strip().endswith("4 passed, 0 failed, 1 not run")
    assert right.stderr.count("torn down") == 1  # the yield fixture's teardown ran
    (tmp_path / "shout.py").write_text(
        SHOUT.replace("print(mark(", "print((").replace(".strip()))", ".strip())+'?')")
    )
    wrong = run(tmp_path)
    assert wrong.returncode == 1
    assert "FAILED test_shout.py::test_prints_the_word_loudly" in wrong.stdout
    assert wrong.stdout.strip().endswith("3 passed, 1 failed, 1 not run")


def test_a_raises_that_is_not_raised_fails_and_a_file_that_cannot_load_counts_once(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text(
        "import pytest\n\n\ndef test_raises():\n    with pytest.raises(KeyError):\n        pass\n"
    )
    (tmp_path / "test_b.py").write_text("from missing_module import x\n")
    out = run(tmp_path)
    assert out.returncode == 1
    assert "DID NOT RAISE" in out.stdout and "ERROR collecting test_b.py" in out.stdout
    assert out.stdout.strip().endswith("0 passed, 2 failed")


def test_no_tests_at_all_exits_5(tmp_path: Path) -> None:
    (tmp_path / "test_empty.py").write_text("X = 1\n")
    assert run(tmp_path).returncode == 5


def test_the_test_command_names_no_secret_so_a_sandbox_that_cannot_hide_them_does_not_ask() -> None:
    assert command_names_secret(PYTEST) is None
