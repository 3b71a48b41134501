"""The file names a task mentions: `notes.txt`, `calc/ops.py`, `quarterly_report.docx`.

Used to tell a small model which of them are in the workspace and which are not: it otherwise
answers BLOCKED ("the task does not give the path to greet.py") with greet.py right there, or
summarises another file when the one asked about is missing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

# a name with an extension (in folders, hidden ones too: `.github/workflows/tests.yml`), not a part of a longer dotted name (`backup.example.com`, a host, is
# no file `backup.example`), an address (`bob@example.org`) or a web address (`example.com/a`)
_NAMED_FILE = re.compile(
    r"(?<![\w/.@-])((?:\.?[\w-]+/)*[\w-]*[A-Za-z][\w-]*\.(?!(?:com|org|net)\b)(?:[A-Za-z0-9]{2,8}|[chrm]))"
    r"(?![\w/-]|\.\w)"
)


# a dotfile: `.gitignore`, `.editorconfig`; not `.github` in `.github/workflows/x.yml`, a folder's name
DOTFILE = re.compile(r"(?<![\w/.*-])(\.[A-Za-z][\w.-]*[\w])(?![\w/])")


def named_paths(task: str) -> list[str]:
    """The file names in the task, each once, in order."""
    found: list[str] = []
    for name in _NAMED_FILE.findall(task):
        if name not in found:
            found.append(name)
    return found


def named_at(task: str) -> list[tuple[str, int]]:
    """Each file name in the task with where it stands (every mention, in order)."""
    return [(m.group(1), m.start(1)) for m in _NAMED_FILE.finditer(task)]


def split_present(root: Path, task: str, limit: int = 10) -> tuple[list[str], list[str]]:
    """(named files that are in the workspace, named files that are not), in the task's order.
    A dotfile the task names counts when it is there (`.editorconfig`: the 1.5B, not shown it,
    rewrote app.js instead); one that is not is no missing file (most are asked to be created)."""
    names = named_paths(task)
    dotfiles = [d for d in dict.fromkeys(DOTFILE.findall(task)) if d not in names]
    present = [n for n in [*names, *dotfiles] if os.path.isfile(root / n)]
    missing = [n for n in names if not os.path.lexists(root / n)]
    return present[:limit], missing[:limit]
