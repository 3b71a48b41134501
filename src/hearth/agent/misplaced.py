"""A new file standing in for one the task names: told "sync.py always prints its `debug:` lines.
Make them debug messages ... (python3 sync.py --verbose notes backup)", the 1.5B wrote a new
notes/sync.py with the change and left sync.py as it was; the task's command still ran the old
script. A write that would create a file of the same name as a file the task names, in another
folder, is refused before it runs, naming the file to change.

A task that asks for the new file is spared: one that names its path ("copy sync.py to
notes/sync.py"), or asks to move, copy or duplicate a file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hearth.agent.named_files import named_paths
from hearth.prompts import render

_MAKES_FILES = re.compile(
    r"\b(?:move|moving|moved|copy|copies|copying|duplicate|duplicating)\b", re.IGNORECASE
)


def misplaced(task: str, root: Path, name: str, path: object) -> str:
    """The error for a `write` of `path` that would create a file of the name of a file the task
    names, in another folder; "" when the call may run."""
    if name != "write" or not isinstance(path, str) or _MAKES_FILES.search(task):
        return ""
    rel = os.path.normpath(path)
    if rel.startswith("..") or os.path.isabs(rel) or os.path.lexists(root / rel):
        return ""
    named = [os.path.normpath(n) for n in named_paths(task)]
    if rel in named:
        return ""
    meant = [n for n in named if os.path.basename(n) == os.path.basename(rel) and os.path.isfile(root / n)]
    return render("error_misplaced", path=path, meant=meant[0]) if meant else ""
