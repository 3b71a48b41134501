"""Plans are written by people: a coder must not queue work for the unattended pipeline.

A coder session denies the file tools under plans/ (its policy), and its shell commands may still
write there (the sandbox lets commands change the workspace), so each coder run is bracketed:
the plan files are recorded before it, and whatever it added, changed or removed in plans/ is
put back after it and reported to the coder as a finding. While a coder is working, no runner
registers a plan file changed since that work began (by its ctime, which a process cannot set
back), so a planted plan is undone before any runner could take it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hearth.runtime.api import PLANS_DIR, Snapshot, snapshot

DENY_RULES = (f"write({PLANS_DIR}/**)", f"edit({PLANS_DIR}/**)")


def restore(workspace: Path, before: Snapshot) -> list[str]:
    """Put plans/ back as `before` recorded it; the findings (one per change undone)."""
    after = snapshot(workspace)
    changed = sorted(n for n in {*before, *after} if before.get(n) != after.get(n))
    if not changed:
        return []
    folder = workspace / PLANS_DIR
    findings = []
    try:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            os.unlink(folder)  # plans/ made a link or a file: the link or file goes, not its target
        folder.mkdir(exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        return [f"{PLANS_DIR}/ was changed and could not be put back: {exc}"]
    try:
        for name in changed:
            what = "added" if name not in before else "removed" if name not in after else "changed"
            findings.append(
                f"{PLANS_DIR}/{name}: {what} by the coder; plans are written by people, so this was undone"
            )
            try:
                if name in after:
                    _remove(fd, name)
                if name in before and not before[name].startswith(b"\0("):
                    file_fd = os.open(
                        name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=fd
                    )
                    with os.fdopen(file_fd, "wb") as fh:
                        fh.write(before[name])
            except OSError as exc:
                findings.append(f"{PLANS_DIR}/{name}: could not be put back: {exc}")
    finally:
        os.close(fd)
    return findings


def _remove(dir_fd: int, name: str) -> None:
    st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if stat.S_ISDIR(st.st_mode):
        sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
        try:
            for entry in os.listdir(sub):
                _remove(sub, entry)
        finally:
            os.close(sub)
        os.rmdir(name, dir_fd=dir_fd)
    else:
        os.unlink(name, dir_fd=dir_fd)
