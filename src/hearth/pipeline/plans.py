"""Plan files: `plans/*.md` in the workspace (a README.md there is documentation, not a plan)."""

from __future__ import annotations

import hashlib
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.api import MAX_PLAN_BYTES, PLANS_DIR

_TEST_LINE = re.compile(
    r"^\s*[-*]?\s*\**(?:test|tests|test command|build|check)\**\s*:\s*`?(?P<cmd>[^`\n]+?)`?\s*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class PlanFile:
    path: str  # relative to the workspace
    name: str
    text: str
    digest: str
    test_command: str
    problem: str = ""  # why this cannot be planned ("" when it can)


def plan_files(workspace: Path) -> list[Path]:
    folder = workspace / PLANS_DIR
    if folder.is_symlink() or not folder.is_dir():
        return []  # a plans/ that is a link is not read (it could point anywhere)
    return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md" and _plain(p))


def _plain(path: Path) -> bool:
    """A regular file (no symlink) no larger than any planner reads (or the plans/ guard keeps)."""
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size <= MAX_PLAN_BYTES


def read_plan(workspace: Path, path: Path) -> PlanFile:
    """A plan's content as registered (`problem` says why it cannot be planned); HearthError if unreadable."""
    rel = path.relative_to(workspace).as_posix() if path.is_absolute() else path.as_posix()
    try:
        raw = (workspace / rel).read_bytes()
    except OSError as exc:
        raise HearthError(f"Cannot read the plan {rel}: {exc.strerror}.", "Check the file exists.") from exc
    problem = ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8", errors="replace")
        problem = f"the plan is not UTF-8 text (byte {exc.start}); save it as UTF-8 Markdown"
    if not problem and not text.strip():
        problem = "the plan is empty; write what should be built"
    if not problem and "\x00" in text:
        problem = "the plan holds NUL bytes (not a text file)"
    match = _TEST_LINE.search(text)
    return PlanFile(
        path=rel,
        name=Path(rel).stem,
        text=text,
        digest=hashlib.sha256(raw).hexdigest(),
        test_command=match.group("cmd").strip() if match else "",
        problem=problem,
    )
