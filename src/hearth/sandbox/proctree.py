"""The processes under a sandboxed process, seen from the host's /proc.

A long-lived process (the `python` tool's interpreter) may start others that outlive the
call that started them; they are background work like a `shell` job and count against the
session's cap. Seen from the host, the tree is: launcher, backend (bwrap or the helper),
maybe a PID namespace's init, then the main process; anything else under the launcher was
started by the main process (orphans come back to the helper, the subreaper, or the
namespace's init, so they stay under the launcher).
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    started: int  # clock ticks after boot
    argv: tuple[bytes, ...]


def _read(pid: int) -> Proc | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            argv = tuple(a for a in fh.read().split(b"\0") if a)
    except OSError:
        return None
    rest = stat.rpartition(b")")[2].split()  # the name may hold spaces and parentheses
    try:
        return Proc(pid, int(rest[1]), rest[0].decode(), int(rest[19]), argv)
    except (IndexError, ValueError):
        return None


def descendants(root: int) -> list[Proc]:
    """Every live process under `root` (not itself), parents before children."""
    procs: dict[int, Proc] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit() and (p := _read(int(name))) is not None:
                procs[p.pid] = p
    children: dict[int, list[Proc]] = {}
    for p in procs.values():
        children.setdefault(p.ppid, []).append(p)
    out: list[Proc] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(0), []):
            out.append(child)
            todo.append(child.pid)
    return out


def started_by_main(root: int, main_tail: str) -> list[Proc]:
    """The live processes under `root` that its main process (the first whose last argument is
    `main_tail`) started, newest last; [] when the main process is not found."""
    tree = descendants(root)
    by_pid = {p.pid: p for p in tree}
    tail = main_tail.encode()
    main = next((p for p in tree if p.argv and p.argv[-1] == tail), None)
    if main is None:
        return []
    spine = {root}
    cur: Proc | None = main
    while cur is not None:
        spine.add(cur.pid)
        cur = by_pid.get(cur.ppid)
    extra = [p for p in tree if p.pid not in spine and p.state not in ("Z", "X")]
    return sorted(extra, key=lambda p: (p.started, p.pid))


def kill(procs: list[Proc]) -> None:
    for p in procs:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p.pid, signal.SIGKILL)
