"""The documentation: generated reference pages match the code, and the repository points at
nothing outside itself."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Notes kept outside the repository, and tracker numbers, mean nothing to a reader of the code.
OUTSIDE = re.compile(r"\b(SPEC|DESIGN|SECURITY|LOCAL-MODEL)\.md|[Ii]ssues? #?[0-9]+")
SCANNED = ("src", "tests", "bench", "scripts", ".ci", "docs", "README.md", "AGENTS.md", "mkdocs.yml")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".txt", ".sh", ".json", ".html", ".js", ".css", ""}


def test_generated_reference_pages_are_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_docs.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr


def test_the_check_sees_a_stale_page(tmp_path: Path) -> None:
    """--check must fail when a page differs from what the code gives (else the test above
    could never fail)."""
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    gen_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_docs)
    page = gen_docs.configuration_page()
    assert "`HEARTH_LLM_URL`" in page and "| `llm_url` |" in page
    assert "## `hearth run`" in gen_docs.cli_page()
    stale = tmp_path / "configuration.md"
    stale.write_text(page.replace("HEARTH_LLM_URL", "HEARTH_SOMETHING_ELSE"))
    (tmp_path / "cli.md").write_text(gen_docs.cli_page())
    assert gen_docs.main(["--check"], tmp_path) == 1
    stale.write_text(page)
    assert gen_docs.main(["--check"], tmp_path) == 0


def _files() -> list[Path]:
    """The repository's files (tracked, and new ones not ignored) under the scanned paths."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *SCANNED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout.splitlines()
    return [ROOT / name for name in listed if Path(name).suffix in TEXT_SUFFIXES and (ROOT / name).is_file()]


def test_nothing_points_outside_the_repository() -> None:
    found = []
    for path in _files():
        if path == Path(__file__).resolve():
            continue  # its own examples below
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


def test_the_readme_stays_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    assert './scripts/quickstart "' in readme and "./scripts/test" in readme


@pytest.mark.parametrize("pattern", ["see SPEC.md", "issue 13", "Issue #11 item 5", "issues 4"])
def test_the_pattern_catches_each_form(pattern: str) -> None:
    assert OUTSIDE.search(pattern)
