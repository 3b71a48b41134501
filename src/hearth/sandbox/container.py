"""Rootless podman or Docker, when an engine runs: a throwaway container per command.

No registry is reachable on many of our users' machines, so the image is the
user's own (setting `sandbox_image`), or a root filesystem folder for podman's
`--rootfs`.
"""

from __future__ import annotations

import shutil
import subprocess

from hearth.core.protocols import ExecSpec
from hearth.sandbox.aliases import SANDBOX_ALIASES, alias_dir
from hearth.sandbox.backend import Backend, Isolation, sandbox_env


class ContainerBackend(Backend):
    engine = "podman"
    isolation = Isolation(files=True, network=True, processes=True, notes="container")
    image = ""

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.engine

    def available(self) -> str | None:
        exe = shutil.which(self.engine)
        if not exe:
            return f"{self.engine} is not installed"
        try:
            proc = subprocess.run([exe, "info"], capture_output=True, text=True, timeout=15)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{self.engine} info failed: {exc}"
        if proc.returncode != 0:
            return f"{self.engine} has no running engine: {(proc.stderr or proc.stdout).strip()[:200]}"
        if not self.image:
            return f"no image configured for {self.engine} (set sandbox_image)"
        return None

    def argv(self, spec: ExecSpec) -> list[str]:
        ws = str(self.workspace)
        args = [
            shutil.which(self.engine) or self.engine,
            "run",
            "--rm",
            "-i",
            "--network",
            "bridge" if spec.network else "none",
            "--cap-drop",
            "ALL",
            "--security-opt",
            "no-new-privileges",
            "--read-only",
            "--pids-limit",
            str(self.limits.processes),
            "--memory",
            str(self.limits.memory_bytes),
            "--ulimit",
            f"nofile={self.limits.open_files}:{self.limits.open_files}",
            "--tmpfs",
            "/tmp",
            "--user",
            "65534:65534",
            "-v",
            f"{ws}:{ws}:rw",
            "-v",
            f"{alias_dir()}:{SANDBOX_ALIASES}:ro",
            "-w",
            str(spec.cwd),
        ]
        for key, value in sandbox_env(home="/tmp", tmp="/tmp", aliases=SANDBOX_ALIASES).items():
            args += ["-e", f"{key}={value}"]
        if self.engine == "podman":
            args[2:2] = ["--runtime", "runc"]  # crun cannot run on cgroup v1 hybrid hosts
        return [*args, self.image, "/bin/sh", "-c", spec.command]


class PodmanBackend(ContainerBackend):
    engine = "podman"


class DockerBackend(ContainerBackend):
    engine = "docker"
