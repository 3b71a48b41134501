"""The documentation: generated reference pages match the code, and the repository points at
nothing outside itself."""

from __future__ import annotations

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
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import gen_docs
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    page = gen_docs.configuration_page()
    assert "`HEARTH_LLM_URL`" in page and "| `llm_url` |" in page
    assert "## `hearth run`" in gen_docs.cli_page()
    stale = tmp_path / "configuration.md"
    stale.write_text(page.replace("HEARTH_LLM_URL", "HEARTH_SOMETHING_ELSE"))
    real = gen_docs.REFERENCE
    gen_docs.REFERENCE = tmp_path
    try:
        (tmp_path / "cli.md").write_text(gen_docs.cli_page())
        assert gen_docs.main(["--check"]) == 1
        stale.write_text(page)
        assert gen_docs.main(["--check"]) == 0
    finally:
        gen_docs.REFERENCE = real


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            out += [
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix in TEXT_SUFFIXES
                and not any(part in {"node", "__pycache__", "out", "site"} for part in p.parts)
                and ".egg-info" not in str(p)
            ]
    return out


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
