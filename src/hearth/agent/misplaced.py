"""A new file standing in for one the task names: told "sync.py always prints its `debug:` lines.
Make them debug messages ... (python3 sync.py --verbose notes backup)", the 1.5B wrote a new
notes/sync.py with the change and left sync.py as it was; the task's command still ran the old
script. A write that would create a file of the same name as a file the task names, in another
folder, is refused before it runs, naming the file to change.

A task that asks for the new file is spared: one that names its path ("copy sync.py to
notes/sync.py"), or asks to move, copy or duplicate a file.

A file the task renames or moves, written again under its old name once it was moved: told the
exact `mv -f fmt.py formatting.py`, the 1.5B ran it and then wrote fmt.py back, twice. Such a
write is refused, naming the file it is now.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hearth.agent.asked import FILE_MOVE
from hearth.agent.named_files import named_paths
from hearth.prompts import render

_MAKES_FILES = re.compile(
    r"\b(?:move|moving|moved|copy|copies|copying|duplicate|duplicating)\b", re.IGNORECASE
)


def misplaced(task: str, root: Path, name: str, path: object) -> str:
    """The error for a `write` of `path` that would create a file of the name of a file the task
    names, in another folder; "" when the call may run."""
    if name != "write" or not isinstance(path, str):
        return ""
    rel = os.path.normpath(path)
    if rel.startswith("..") or os.path.isabs(rel) or os.path.lexists(root / rel):
        return ""
    moved = _moved_to(task, root, rel)
    if moved:
        return render("error_moved_back", path=path, new=moved)
    if _MAKES_FILES.search(task):
        return ""
    named = [os.path.normpath(n) for n in named_paths(task)]
    if rel in named:
        return ""
    meant = [n for n in named if os.path.basename(n) == os.path.basename(rel) and os.path.isfile(root / n)]
    return render("error_misplaced", path=path, meant=meant[0]) if meant else ""


def _moved_to(task: str, root: Path, rel: str) -> str:
    """The new name of `rel` when the task renames or moves it there and that file exists."""
    for match in FILE_MOVE.finditer(task):
        old, new = os.path.normpath(match.group(1)), match.group(2)
        if old == rel and new.endswith("/"):
            new = os.path.join(new, os.path.basename(old))
        if old == rel and os.path.isfile(root / new):
            return os.path.normpath(new)
    return ""
