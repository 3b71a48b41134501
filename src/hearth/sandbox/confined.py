"""Backends that run the command under helper.py: Landlock + seccomp, or plain limits.

Landlock is for hosts where user namespaces are blocked (so bwrap cannot run):
the command may write only the workspace and a private temp folder, read
only system folders and the workspace, open no TCP or IP sockets, reach no
abstract Unix socket or process outside. The process backend is the honest
last resort: limits and clean-up, but no isolation, and it says so.

Landlock cannot deny a sub-path of a folder it allows, so control files and
each repository's settings inside the workspace are writable here: the guard
(guard.py, called by the runner after each command and tool call, and while a
lasting process lives) is what puts them back.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from hearth.core.protocols import ExecSpec
from hearth.sandbox.aliases import alias_dir
from hearth.sandbox.backend import Backend, Isolation, sandbox_env
from hearth.sandbox.gitconfig import identity_config

HELPER = Path(__file__).with_name("helper.py")
SYSTEM_READ = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/dev",
    "/proc",
    "/sys",
)


def _helper_argv(options: list[str], env: Mapping[str, str], command: str) -> list[str]:
    env_opts = [part for k, v in env.items() for part in ("--env", f"{k}={v}")]
    # The helper stops everything when this process dies. (PR_SET_PDEATHSIG follows the thread
    # that forked: asyncio forks in the event loop's thread, which lives as long as Hearth does.)
    parent = ["--parent", str(os.getpid())]
    return [
        sys.executable,
        "-I",
        "-S",
        str(HELPER),
        *parent,
        *options,
        *env_opts,
        "--",
        "/bin/sh",
        "-c",
        command,
    ]


class ProcessBackend(Backend):
    name = "process"
    isolation = Isolation(files=False, network=False, processes=True, notes="resource limits only")

    def argv(self, spec: ExecSpec) -> list[str]:
        env = sandbox_env(home=os.environ.get("HOME", "/tmp"), tmp=tempfile.gettempdir(), aliases=alias_dir())
        return _helper_argv(["--cwd", str(spec.cwd)], env, spec.command)


class LandlockBackend(Backend):
    name = "landlock"
    isolation = Isolation(files=True, network=True, processes=True, notes="Landlock and seccomp")
    cannot = (
        "Landlock cannot hide secret files inside the workspace (a command can read .env), cannot make "
        "control files read-only (git hooks and config, editor and agent settings: the guard puts them "
        "back after each command and tool call, and every few seconds while a process of the session "
        "lives), and gives commands no PID namespace of their own unless Hearth runs as root."
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._tmp = tempfile.mkdtemp(prefix="hearth-sandbox-")
        # The commands' HOME: git there reads the user's identity and nothing else of theirs.
        Path(self._tmp, ".gitconfig").write_text(identity_config())
        self.scratch_dirs = (Path(self._tmp),)  # counted in the session's write budget

    def available(self) -> str | None:
        if sys.platform != "linux":
            return "Landlock is Linux only"
        probe = [sys.executable, "-I", "-S", str(HELPER), "--abi"]
        import subprocess

        try:
            abi = int(subprocess.run(probe, capture_output=True, text=True, timeout=10).stdout.strip() or -1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            abi = -1
        if abi < 4:
            return f"Landlock ABI {abi} is too old or missing (need 4+ to block TCP; Linux 6.7+)"
        return None

    def argv(self, spec: ExecSpec) -> list[str]:
        readable = [p for p in SYSTEM_READ if os.path.exists(p)]
        readable += sorted({sys.prefix, sys.base_prefix, str(Path(sys.executable).resolve().parent.parent)})
        aliases = alias_dir()
        readable.append(aliases)
        options = ["--cwd", str(spec.cwd), "--landlock", "--seccomp", "--drop-caps"]
        options += [] if not spec.network else ["--allow-net"]
        for path in (str(self.workspace), self._tmp, "/dev/null", "/dev/zero", "/dev/tty"):
            options += ["--writable", path]
        for path in readable:
            options += ["--readable", path]
        env = sandbox_env(home=self._tmp, tmp=self._tmp, aliases=aliases)
        return _helper_argv(options, env, spec.command)

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)
