"""The inbox folder: a task dropped in as a file is queued for the scheduler.

`inbox/*.md` or `*.txt` in the workspace's state folder (`config.state_dir`, in the user's data
folder, outside the workspace): each file's text is one task. A queued file moves to
`inbox/taken/`; one that cannot be a task (empty, too big, not text) moves to `inbox/rejected/`
with a `.why` note beside it. A file is queued once: the run remembers the file's name, size and
time, so a scheduler stopped between queueing and moving it does not queue it twice.
(The folder is outside the workspace, so neither a sandboxed command nor a cloned repository can
queue work here; a `.hearth/inbox/` inside the workspace is never read.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from hearth.schedule.store import ScheduleStore

MAX_TASK_BYTES = 200_000
SUFFIXES = (".md", ".txt")


@dataclass(frozen=True)
class Taken:
    name: str
    run_id: int | None  # None: rejected
    why: str = ""


def drain_inbox(folder: Path, store: ScheduleStore, now: datetime) -> list[Taken]:
    """Queue every task file in `folder` (oldest first) and move it out of the way."""
    if not folder.is_dir():
        return []
    found = []
    for entry in os.scandir(folder):
        if entry.name.startswith(".") or not entry.name.endswith(SUFFIXES):
            continue
        if not entry.is_file(follow_symlinks=False):
            continue
        found.append((entry.stat(follow_symlinks=False), entry.name))
    out: list[Taken] = []
    for info, name in sorted(found, key=lambda f: (f[0].st_mtime_ns, f[1])):
        path = folder / name
        why = ""
        text = ""
        if info.st_size > MAX_TASK_BYTES:
            why = f"the file is {info.st_size} bytes; a task may be at most {MAX_TASK_BYTES}"
        else:
            try:
                text = path.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as exc:
                why = f"cannot read it as UTF-8 text: {exc}"
            if not why and not text:
                why = "the file is empty"
        if why:
            _move(path, folder / "rejected", why)
            out.append(Taken(name, None, why))
            continue
        origin = f"inbox:{name}:{info.st_size}:{info.st_mtime_ns}"
        run_id = store.enqueue("inbox", text, now, now, origin=origin)
        _move(path, folder / "taken", "")
        out.append(Taken(name, run_id))
    return out


def _move(path: Path, to: Path, why: str) -> None:
    to.mkdir(parents=True, exist_ok=True)
    target = to / path.name
    n = 1
    while target.exists():
        target = to / f"{path.stem}-{n}{path.suffix}"
        n += 1
    path.rename(target)
    if why:
        target.with_name(target.name + ".why").write_text(why + "\n", encoding="utf-8")
