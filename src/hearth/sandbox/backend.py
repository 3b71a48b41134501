"""What every sandbox backend provides: a command line that confines one command."""

from __future__ import annotations

import contextlib
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from hearth.core.protocols import ExecSpec
from hearth.sandbox.gitconfig import user_identity
from hearth.sandbox.limits import ResourceLimits

SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
NOT_ISOLATED = (
    "NOT ISOLATED: commands can read everything your user can (e.g. ~/.ssh), write anywhere, "
    "use the network, and persist via shell rc files or git hooks."
)

BWRAP_PACKAGES = (
    "apt install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora, RHEL), "
    "pacman -S bubblewrap (Arch), zypper install bubblewrap (openSUSE)"
)
GET_BWRAP = f"For the full sandbox install bubblewrap: {BWRAP_PACKAGES}."


@dataclass(frozen=True)
class Isolation:
    files: bool
    network: bool
    processes: bool
    notes: str = ""
    secrets: bool = False  # secret files read as empty to commands (see secrets.py); bwrap only

    def describe(self) -> str:
        if not (self.files or self.network):
            return NOT_ISOLATED
        parts = [
            "files: only the workspace is writable" if self.files else "files: NOT isolated",
            "network: off unless allowed" if self.network else "network: NOT isolated",
            "processes: all killed when a command ends"
            if self.processes
            else "processes: process group only",
        ]
        return "; ".join(parts) + (f" ({self.notes})" if self.notes else "")


@dataclass
class Launch:
    """What the runner starts: the command line, file descriptors it inherits, and clean-up."""

    argv: list[str]
    pass_fds: tuple[int, ...] = ()

    def close(self) -> None:
        for fd in self.pass_fds:
            with contextlib.suppress(OSError):
                os.close(fd)


class Backend(ABC):
    name: str
    isolation: Isolation
    controls_read_only = False  # control files are mounted read-only (else only the guard protects them)
    cannot = ""  # what this backend cannot protect, said when a session starts (see `caveat`)

    def __init__(self, workspace: Path, limits: ResourceLimits) -> None:
        self.workspace = workspace
        self.limits = limits

    @abstractmethod
    def argv(self, spec: ExecSpec) -> list[str]:
        """The full command line that runs `spec.command` confined."""

    def launch(self, spec: ExecSpec) -> Launch:
        return Launch(self.argv(spec))

    def env(self, spec: ExecSpec) -> dict[str, str]:
        """The environment the launcher itself starts with (never the agent's secrets)."""
        return {}

    def available(self) -> str | None:
        """None when usable here; otherwise why not."""
        return None


def user_email() -> str:
    """The user's own git email, given to every sandboxed command as `EMAIL`, which git reads only
    where no config sets `user.email` (a repository's own identity wins): where no global config
    with the whole identity can be given (`identity_config`), a `git commit` still works."""
    return user_identity()[1]


def sandbox_env(home: str, tmp: str, aliases: str) -> dict[str, str]:
    """The whole environment of a sandboxed command; `aliases` is where the command sees the
    folder of aliases.py (last on PATH, so a real command of the same name wins)."""
    return {
        "EMAIL": user_email(),
        "PATH": f"{SANDBOX_PATH}:{aliases}",
        "HOME": home,
        "TMPDIR": tmp,
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "PAGER": "cat",
        "GIT_PAGER": "cat",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
