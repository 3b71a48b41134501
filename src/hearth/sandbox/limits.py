"""Resource limits for sandboxed processes: rlimits, plus a cgroup where we may make one.

RLIMIT_NPROC is not enforced for root in the host's user namespace, so a pids
cgroup (v1 or v2) is added when Hearth can create one; `hearth doctor` says
which limits apply. A cgroup is named for the Hearth process that made it, so one
left behind by a Hearth that was killed is emptied and removed at the next start.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import secrets
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
RLIMITS = {
    "as": resource.RLIMIT_AS,
    "fsize": resource.RLIMIT_FSIZE,
    "nofile": resource.RLIMIT_NOFILE,
    "core": resource.RLIMIT_CORE,
    "nproc": resource.RLIMIT_NPROC,
}


@dataclass(frozen=True)
class ResourceLimits:
    memory_bytes: int = 8 << 30
    file_bytes: int = 2 << 30
    open_files: int = 4096
    processes: int = 512

    def rlimits(self) -> dict[str, int]:
        return {
            "as": self.memory_bytes,
            "fsize": self.file_bytes,
            "nofile": self.open_files,
            "core": 0,
            "nproc": self.processes,
        }


@dataclass
class ProcessGroup:
    """A cgroup for one command's processes, if the host lets us make one."""

    limits: ResourceLimits
    paths: list[Path] = field(default_factory=list)

    @classmethod
    def create(cls, limits: ResourceLimits, *, owner: int | None = None) -> ProcessGroup:
        group = cls(limits)
        name = f"{_prefix()}{owner or os.getpid()}-{secrets.token_hex(4)}"
        v1_pids, v1_mem = CGROUP_ROOT / "pids", CGROUP_ROOT / "memory"
        with contextlib.suppress(OSError):
            if (v1_pids / "cgroup.procs").exists():
                group._make(v1_pids / name, {"pids.max": str(limits.processes)})
                if (v1_mem / "cgroup.procs").exists():
                    group._make(v1_mem / name, {"memory.limit_in_bytes": str(limits.memory_bytes)})
            elif (CGROUP_ROOT / "cgroup.controllers").exists():
                group._make(
                    CGROUP_ROOT / name,
                    {"pids.max": str(limits.processes), "memory.max": str(limits.memory_bytes)},
                )
        return group

    def _make(self, path: Path, settings: dict[str, str]) -> None:
        path.mkdir()
        self.paths.append(path)
        for key, value in settings.items():
            with contextlib.suppress(OSError):
                (path / key).write_text(value)

    @property
    def active(self) -> bool:
        return bool(self.paths)

    def launcher(self, argv: list[str]) -> list[str]:
        """`argv` wrapped so it starts inside the cgroup and under the rlimits, race-free.

        A tiny shell joins the cgroup, then execs `prlimit`, which sets the limits and execs
        the backend. (A Python preexec_fn would do the same at about ten times the cost.)
        """
        joins = "".join(f"echo $$ > {shlex.quote(str(p / 'cgroup.procs'))} 2>/dev/null; " for p in self.paths)
        prlimit = _which("prlimit")
        if prlimit:
            flags = [f"--{name}={value}:{value}" for name, value in self.limits.rlimits().items()]
            tail = [prlimit, *flags, "--", *argv]
        else:  # no util-linux: the cgroup (if any) is the only limit
            tail = argv
        return ["/bin/sh", "-c", joins + 'exec "$@"', "hearth-launch", *tail]

    def enter(self, pid: int) -> None:
        """Put a waiting process (a spare launcher, spare.py) in the cgroup and under the rlimits,
        as `launcher` does for itself; what it starts afterwards inherits both.
        OSError: the rlimits could not be set (the process must not be used)."""
        for path in self.paths:
            with contextlib.suppress(OSError):  # as the launcher's `echo $$ > ... 2>/dev/null`
                (path / "cgroup.procs").write_text(str(pid))
        for name, value in self.limits.rlimits().items():
            resource.prlimit(pid, RLIMITS[name], (value, value))

    def remove(self) -> None:
        for path in self.paths:
            _empty(path)
        self.paths.clear()

    @staticmethod
    def sweep_stale() -> int:
        """Empty and remove the cgroups of Hearth processes (of this PID namespace) that are gone."""
        prefix, swept = _prefix(), 0
        for root in (CGROUP_ROOT / "pids", CGROUP_ROOT / "memory", CGROUP_ROOT):
            with contextlib.suppress(OSError):
                for path in root.iterdir():
                    owner = path.name.removeprefix(prefix).split("-", 1)[0]
                    if path.name.startswith(prefix) and owner.isdigit() and not _alive(int(owner)):
                        _empty(path)
                        swept += 1
        return swept


_which = functools.cache(shutil.which)  # searched once: a PATH walk is ~1 ms a command


def _prefix() -> str:
    """`hearth-<PID namespace>-`: a PID means something only in its own namespace."""
    try:
        return f"hearth-{os.stat('/proc/self/ns/pid').st_ino}-"
    except OSError:
        return "hearth-0-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _empty(path: Path) -> None:
    """Kill every process in the cgroup, then remove it (which waits for them to be gone)."""
    for _ in range(50):
        with contextlib.suppress(OSError):
            for pid in (path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), 9)
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)
