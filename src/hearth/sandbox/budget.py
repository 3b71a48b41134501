"""A session's caps across commands: how much the workspace may grow, how many jobs may run.

RLIMIT_FSIZE caps one file; the write budget caps them all together: the space the
workspace (and the sandbox's own temp folder) takes on disk may grow by at most
`write_bytes` over the session. Deleting files gives budget back.

Measuring a folder means walking it (in a thread), so that is done sparingly: the used
space of the filesystems holding the folders (one statvfs each, about a microsecond)
bounds how much they can have grown since the last walk, and the folders are walked again
when that bound passes the cap, or when 20 times the last walk's duration has passed (so
walking takes at most a twentieth of the time; other programs freeing space on the same
filesystem can make the bound too low for that long).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from pathlib import Path

MB = 1 << 20
WALK_SHARE = 20  # walk again after 20 times the last walk's duration


@dataclass(frozen=True)
class SessionCaps:
    write_bytes: int = 1 << 30  # 0: no cap
    background_jobs: int = 8


def disk_use(folders: list[Path]) -> int:
    """Bytes the folders take on disk (allocated blocks; hard links counted once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    stack = [str(f) for f in folders]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                key = (st.st_dev, st.st_ino)
                if st.st_nlink > 1:
                    if key in seen:
                        continue
                    seen.add(key)
                total += st.st_blocks * 512
    return total


def _mb(n: int) -> str:
    return f"{n / MB:.0f} MB" if n >= 10 * MB else f"{n / MB:.1f} MB"


class WriteBudget:
    def __init__(self, folders: list[Path], cap: int) -> None:
        self.folders = folders
        self.cap = cap
        self._baseline: int | None = None
        self.grown = 0  # at the last walk
        self._fs_ref = 0  # filesystems' use at the last walk
        self._walked_at = 0.0
        self._walk_seconds = 0.0

    def _fs_used(self) -> int:
        used, devices = 0, set()
        for folder in self.folders:
            try:
                device = os.stat(folder).st_dev
                if device in devices:
                    continue
                devices.add(device)
                vfs = os.statvfs(folder)
            except OSError:
                continue
            used += (vfs.f_blocks - vfs.f_bfree) * vfs.f_frsize
        return used

    def estimate(self) -> int:
        """An upper bound on the growth so far (unless other programs freed space meanwhile)."""
        return self.grown + max(0, self._fs_used() - self._fs_ref)

    async def measure(self) -> int:
        """Walk the folders: the growth since the first measure."""
        fs_used = self._fs_used()
        started = time.monotonic()
        use = await asyncio.to_thread(disk_use, self.folders)
        self._walked_at = time.monotonic()
        self._walk_seconds = self._walked_at - started
        if self._baseline is None:
            self._baseline = use
        self.grown, self._fs_ref = use - self._baseline, fs_used
        return self.grown

    async def over(self) -> int | None:
        """The growth when it is past the cap, else None (cheap unless the bound says maybe)."""
        if not self.cap:
            return None
        due = time.monotonic() - self._walked_at > WALK_SHARE * self._walk_seconds
        if self._baseline is None or due or self.estimate() > self.cap:
            grown = await self.measure()
            return grown if grown > self.cap else None
        return None

    def message(self, grown: int, consequence: str) -> str:
        return (
            f"[hearth: the session's write budget of {_mb(self.cap)} is used up: the workspace grew by "
            f"{_mb(grown)} since the session began. {consequence} Delete files that are not needed "
            "(rm still works), or ask the user to raise `max_session_write_bytes`.]"
        )
