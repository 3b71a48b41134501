"""Patch proposals: diffs the agent proposed (create_patch), kept in `patches/` of the
workspace's state folder (a folder the agent's tools and shell cannot change) until a person applies or rejects them.

Applying runs the real `git apply` in the workspace with git's risky settings turned off (no
hooks, no fsmonitor, no system config); git refuses paths outside the workspace or through a
symlink, and `--check` runs first so a patch that no longer fits changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from hearth.core.errors import HearthError, NotFound
from hearth.runtime.config import state_dir
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.git import SAFE_CONFIG
from hearth.tools.builtin.patches import patch_tool

STATUSES = ("proposed", "applied", "rejected")


@dataclass
class Patch:
    id: int
    note: str
    files: list[str]
    session: str
    created: float
    status: str = "proposed"


class Patches:
    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.folder = state_dir(workspace) / "patches"

    def _meta(self, number: int) -> Path:
        return self.folder / f"{number}.json"

    def diff_path(self, number: int) -> Path:
        return self.folder / f"{number}.diff"

    def propose(self, diff: str, note: str, files: list[str], session: str) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        number = max((p.id for p in self.list()), default=0) + 1
        while True:
            try:
                fd = os.open(self.diff_path(number), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                break
            except FileExistsError:
                number += 1
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(diff)
        self._save(Patch(number, note.strip(), files, session, time.time()))
        return number

    def _save(self, patch: Patch) -> None:
        self._meta(patch.id).write_text(json.dumps(asdict(patch), indent=1), encoding="utf-8")

    def list(self) -> list[Patch]:
        if not self.folder.is_dir():
            return []
        out = []
        for meta in self.folder.glob("*.json"):
            try:
                out.append(Patch(**json.loads(meta.read_text(encoding="utf-8"))))
            except (OSError, ValueError, TypeError):
                continue
        return sorted(out, key=lambda p: p.id)

    def get(self, number: int) -> Patch:
        try:
            return Patch(**json.loads(self._meta(number).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            raise NotFound(f"No patch {number}.", "See `hearth patches list`.") from None

    def diff(self, number: int) -> str:
        self.get(number)
        return self.diff_path(number).read_text(encoding="utf-8")

    def apply(self, number: int) -> Patch:
        patch = self._open(number)
        for args in (["apply", "--check"], ["apply"]):
            done = _git(self.workspace, *args, str(self.diff_path(number)))
            if done.returncode != 0:
                raise HearthError(
                    f"Patch {number} does not apply: {done.stderr.strip() or done.stdout.strip()}",
                    "Nothing was changed. Reject it, or ask the agent for a new patch against the current files.",
                )
        patch.status = "applied"
        self._save(patch)
        return patch

    def reject(self, number: int) -> Patch:
        patch = self._open(number)
        patch.status = "rejected"
        self._save(patch)
        return patch

    def _open(self, number: int) -> Patch:
        patch = self.get(number)
        if patch.status != "proposed":
            raise HearthError(f"Patch {number} was already {patch.status}.", "See `hearth patches list`.")
        return patch


def _git(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    config = [part for c in SAFE_CONFIG for part in ("-c", c)]
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    return subprocess.run(
        ["git", "--no-pager", *config, *args],
        cwd=workspace,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def patch_tools() -> list[Tool]:
    def propose(ctx: RunContext, diff: str, note: str, files: list[str]) -> int:
        return Patches(ctx.workspace).propose(diff, note, files, ctx.session_id)

    return [patch_tool(propose)]
