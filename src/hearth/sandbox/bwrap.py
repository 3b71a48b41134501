"""bubblewrap: new user, PID, network, IPC and mount namespaces; all capabilities dropped.

Launched with an empty environment (`--clearenv` alone leaks the parent's
through /proc), as uid 65534 inside its own user namespace, with the system
read-only, `/tmp`, `/run` and home folders replaced by empty ones, the
workspace read-write, and the agent's control files read-only or hidden.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from hearth.core.protocols import ExecSpec
from hearth.sandbox import guard
from hearth.sandbox.aliases import SANDBOX_ALIASES, alias_dir
from hearth.sandbox.backend import BWRAP_PACKAGES, Backend, Isolation, Launch, sandbox_env
from hearth.sandbox.gitconfig import identity_config
from hearth.sandbox.helper import seccomp_program
from hearth.sandbox.secrets import secret_index

HIDDEN_DIRS = ("/root", "/home", "/tmp", "/var/tmp", "/run", "/var/run", "/mnt", "/media", "/srv")
MAX_GIT_BINDS = 256


RELAY = Path(__file__).with_name("relay.py")
PROXY_PORT = 3128
SANDBOX_PROXY_SOCKET = "/run/hearth-proxy.sock"
SANDBOX_RELAY = "/run/hearth-relay.py"


# Built once per process: compiling the filter and searching PATH cost about 2 ms per command.
_program = functools.cache(seccomp_program)
_which = functools.cache(shutil.which)


class BwrapBackend(Backend):
    name = "bwrap"
    isolation = Isolation(
        files=True, network=True, processes=True, notes="bubblewrap, PID namespace", secrets=True
    )
    controls_read_only = True  # existing ones; new ones are undone by the guard (runner.py)
    proxy_socket: Path | None = None  # set for network by allow-list (see proxy.py)
    _bind_fds: list[int] | None = None  # collects descriptors for --bind-fd while launching
    _home: str | None = None  # a private host folder holding the commands' git identity

    def available(self) -> str | None:
        if not shutil.which("bwrap"):
            return f"bwrap is not installed ({BWRAP_PACKAGES})"
        return None

    def launch(self, spec: ExecSpec) -> Launch:
        """bwrap with a seccomp filter (no ptrace, io_uring or namespace games) read from a pipe,
        and the git binds made from descriptors (so a path swapped for a symlink cannot redirect them)."""
        self._bind_fds = []
        try:
            argv = self.argv(spec)
        except BaseException:
            Launch([], tuple(self._bind_fds)).close()
            raise
        finally:
            fds, self._bind_fds = tuple(self._bind_fds), None
        try:
            program = _program(block_inet=False)  # the network namespace does that part
        except OSError:
            return Launch(argv, fds)
        read_fd, write_fd = os.pipe()
        os.write(write_fd, program)
        os.close(write_fd)
        cut = argv.index("--")
        return Launch([*argv[:cut], "--seccomp", str(read_fd), *argv[cut:]], pass_fds=(read_fd, *fds))

    def argv(self, spec: ExecSpec) -> list[str]:
        ws = str(self.workspace)
        args = [
            _which("bwrap") or "bwrap",
            "--unshare-all",
            "--unshare-user",
            "--uid",
            "65534",
            "--gid",
            "65534",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--hostname",
            "sandbox",
        ]
        if spec.network:
            args.append("--share-net")
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        home = os.environ.get("HOME", "")
        for hidden in (*HIDDEN_DIRS, home):
            if hidden and hidden != "/" and os.path.isdir(hidden) and not os.path.islink(hidden):
                args += ["--tmpfs", hidden]
        args += ["--ro-bind", self._identity(), "/tmp/.gitconfig"]  # HOME is /tmp
        args += ["--bind", ws, ws]
        args += self._protections()
        args += ["--ro-bind", alias_dir(), SANDBOX_ALIASES]
        env = sandbox_env(home="/tmp", tmp="/tmp", aliases=SANDBOX_ALIASES)
        command = ["/bin/sh", "-c", spec.command]
        if self.proxy_socket is not None and not spec.network:
            python = os.path.realpath(sys.executable)
            args += [
                "--ro-bind",
                sys.base_prefix,
                sys.base_prefix,
                "--ro-bind",
                str(RELAY),
                SANDBOX_RELAY,
                "--bind",
                str(self.proxy_socket),
                SANDBOX_PROXY_SOCKET,
            ]
            proxy = f"http://127.0.0.1:{PROXY_PORT}"
            env.update(HTTP_PROXY=proxy, HTTPS_PROXY=proxy, http_proxy=proxy, https_proxy=proxy)
            command = [
                python,
                "-I",
                "-S",
                SANDBOX_RELAY,
                SANDBOX_PROXY_SOCKET,
                str(PROXY_PORT),
                "--",
                *command,
            ]
        args += ["--chdir", str(spec.cwd), "--clearenv"]
        for key, value in env.items():
            args += ["--setenv", key, value]
        return [*args, "--", *command]

    def _identity(self) -> str:
        """The host file bound read-only as the commands' `~/.gitconfig`: the user's git name and
        email alone. A file, not data bwrap writes (`--ro-bind-data`): past the session's write
        budget bwrap could not write it, and not even `rm` could start."""
        if self._home is None:
            self._home = tempfile.mkdtemp(prefix="hearth-home-")
            Path(self._home, "gitconfig").write_text(identity_config())
        return os.path.join(self._home, "gitconfig")

    def close(self) -> None:
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None

    def _protections(self) -> list[str]:
        ws = self.workspace
        out = self._git_protections()
        if (ws / ".hearth").is_dir():
            out += ["--tmpfs", str(ws / ".hearth")]
        # Hearth's state is in the user's data folder; a workspace that holds it (one opened at
        # the home folder) must not hand it to the command.
        data = Path(os.path.realpath(user_data_dir("hearth")))
        if data.is_dir() and data.is_relative_to(os.path.realpath(ws)):
            out += ["--tmpfs", str(data)]
        out += _secret_binds(ws)
        return out

    def _git_protections(self) -> list[str]:
        """Each repository's folder pinned (a mount point cannot be renamed or removed), its
        settings, hooks and the other control files read-only. See guard.py for what is which."""
        pins, readonly = guard.mounts(self.workspace)
        out: list[str] = []
        budget = MAX_GIT_BINDS  # past it (hundreds of nested repositories) only the guard protects
        try:
            root = os.open(self.workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return out
        try:
            for flag, rels in (("--bind", pins), ("--ro-bind", readonly)):
                for rel in rels[:budget]:
                    budget -= 1
                    dest = str(self.workspace / rel)
                    if self._bind_fds is None:  # a command line to show, not to run
                        out += [flag, dest, dest]
                        continue
                    try:
                        fd = guard.open_path(root, rel)
                    except OSError:
                        continue  # gone or swapped since the scan; the guard checks after the command
                    self._bind_fds.append(fd)
                    out += [flag + "-fd", str(fd), dest]
        finally:
            os.close(root)
        return out


def _secret_binds(root: Path) -> list[str]:
    """Every secret in the workspace, at any depth (secrets.py): files and hardlinks to them read
    as /dev/null, secret folders are empty. Symlinks lead to one of these, or outside."""
    inventory = secret_index(root).scan()
    out: list[str] = []
    for rel in inventory.dirs:
        out += ["--tmpfs", os.path.join(root, rel)]
    for rel in inventory.files:
        out += ["--ro-bind", "/dev/null", os.path.join(root, rel)]
    return out
