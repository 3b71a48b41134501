"""Resource limits for sandboxed processes: rlimits, plus a cgroup where we may make one.

RLIMIT_NPROC is not enforced for root in the host's user namespace, so a pids
cgroup (v1 or v2) is added when Hearth can create one; `hearth doctor` says
which limits apply.
"""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


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


def apply_rlimits(limits: dict[str, int]) -> None:
    for name, value in limits.items():
        which = getattr(resource, "RLIMIT_" + name.upper())
        _soft, hard = resource.getrlimit(which)
        cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (cap, cap))


@dataclass
class ProcessGroup:
    """A cgroup for one command's processes, if the host lets us make one."""

    limits: ResourceLimits
    paths: list[Path] = field(default_factory=list)

    @classmethod
    def create(cls, limits: ResourceLimits) -> ProcessGroup:
        group = cls(limits)
        name = f"hearth-{os.getpid()}-{secrets.token_hex(4)}"
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

    def joiner(self) -> Callable[[], None]:
        """Runs in the child between fork and exec: join the cgroup, set rlimits."""
        procs = [str(p / "cgroup.procs") for p in self.paths]
        rlimits = self.limits.rlimits()

        def join() -> None:
            for path in procs:
                with contextlib.suppress(OSError), open(path, "w") as fh:
                    fh.write(str(os.getpid()))
            apply_rlimits(rlimits)

        return join

    def remove(self) -> None:
        for path in self.paths:
            with contextlib.suppress(OSError):
                for pid in (path / "cgroup.procs").read_text().split():
                    os.kill(int(pid), 9)
            with contextlib.suppress(OSError):
                path.rmdir()
        self.paths.clear()
