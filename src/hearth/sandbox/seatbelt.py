"""macOS: `sandbox-exec` with a generated deny-by-default profile.

Writes only under the workspace (minus control files) and temp folders; no
network unless allowed. Cannot run on Linux; its profile is unit-tested.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from hearth.core.protocols import ExecSpec
from hearth.sandbox.aliases import alias_dir
from hearth.sandbox.backend import Backend, Isolation, sandbox_env
from hearth.sandbox.guard import CONTROL_PATTERNS


def _quote(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def seatbelt_profile(workspace: Path, network: bool) -> str:
    ws = str(workspace)
    lines = [
        "(version 1)",
        "(deny default)",
        "(allow process-exec)",
        "(allow process-fork)",
        "(allow signal (target same-sandbox))",
        "(allow sysctl-read)",
        "(allow mach-lookup)",
        "(allow file-read*)",
        '(deny file-read* (subpath (param "HOME_SSH")) (subpath (param "HOME_AWS")))',
        f'(allow file-write* (subpath {_quote(ws)}) (subpath "/private/tmp") (subpath "/private/var/folders")'
        ' (literal "/dev/null") (literal "/dev/tty"))',
    ]
    for pattern in CONTROL_PATTERNS:
        if "*" in pattern:
            continue
        target = _quote(str(workspace / pattern))
        lines.append(f"(deny file-write* (literal {target}) (subpath {target}))")
    if network:
        lines.append("(allow network*)")
    else:
        lines.append('(allow network* (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))')
    return "\n".join(lines) + "\n"


class SeatbeltBackend(Backend):
    name = "seatbelt"
    isolation = Isolation(files=True, network=True, processes=False, notes="macOS sandbox-exec")
    controls_read_only = True  # its profile denies writes to the catalogue's fixed paths

    def available(self) -> str | None:
        if sys.platform != "darwin" or not shutil.which("sandbox-exec"):
            return "Seatbelt (sandbox-exec) exists only on macOS"
        return None

    def argv(self, spec: ExecSpec) -> list[str]:
        home = str(Path.home())
        profile = seatbelt_profile(self.workspace, spec.network)
        return [
            "/usr/bin/sandbox-exec",
            "-D",
            f"HOME_SSH={home}/.ssh",
            "-D",
            f"HOME_AWS={home}/.aws",
            "-p",
            profile,
            "/usr/bin/env",
            "-i",
            *[f"{k}={v}" for k, v in sandbox_env(home=home, tmp="/private/tmp", aliases=alias_dir()).items()],
            "/bin/sh",
            "-c",
            spec.command,
        ]
