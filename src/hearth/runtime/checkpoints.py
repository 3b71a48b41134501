"""Checkpoints of the workspace in a shadow git repository, so a step can be undone.

The repository lives in `.hearth/checkpoints.git` with the workspace as its work tree: the
user's own git history is never touched, and folders that are not repositories work too.
It honours the workspace's .gitignore and never records `.git/` or `.hearth/`. Git runs with
hooks, fsmonitor and filters of its own config only (the shadow repository's, which Hearth writes).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.core.events import Checkpointed, Notice
from hearth.prompts import render
from hearth.store.sessions import SessionStore

SAFE = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "user.name=Hearth checkpoints",
    "-c",
    "user.email=hearth@localhost",
    "-c",
    "commit.gpgsign=false",
)


@dataclass
class Checkpoints:
    workspace: Path

    @property
    def git_dir(self) -> Path:
        return self.workspace / ".hearth" / "checkpoints.git"

    def _git(self, *args: str, check: bool = True) -> str:
        cmd = ["git", f"--git-dir={self.git_dir}", f"--work-tree={self.workspace}", *SAFE, *args]
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "GIT_CONFIG_NOSYSTEM": "1",
            "HOME": str(self.git_dir),
            "GIT_TERMINAL_PROMPT": "0",
        }
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=self.workspace)
        if check and proc.returncode != 0:
            raise HearthError(f"Checkpoint git failed: {proc.stderr.strip()[:300]}", "Is git installed?")
        return proc.stdout.strip()

    def _ensure(self) -> None:
        if (self.git_dir / "HEAD").exists():
            return
        self.git_dir.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "--bare", str(self.git_dir)], check=True, capture_output=True)
        (self.git_dir / "info").mkdir(exist_ok=True)
        (self.git_dir / "info" / "exclude").write_text(".git/\n.hearth/\n")

    def snapshot(self, label: str) -> str:
        """Record the workspace as it is now; returns the checkpoint id."""
        self._ensure()
        self._git("add", "-A", "--", ".")
        self._git("commit", "-q", "--allow-empty", "--no-verify", "-m", label)
        return self._git("rev-parse", "HEAD")

    def history(self) -> list[tuple[str, str]]:
        """(id, label) newest first."""
        if not (self.git_dir / "HEAD").exists():
            return []
        out = self._git("log", "--format=%H %s", check=False)
        return [(line[:40], line[41:]) for line in out.splitlines() if line]

    def restore(self, checkpoint: str) -> list[str]:
        """Put the workspace back as it was at `checkpoint`; returns the paths that changed."""
        self.snapshot("before undo")  # so the undo itself can be undone
        changed = self._git("diff", "--name-only", checkpoint, "HEAD").splitlines()
        self._git("reset", "-q", "--hard", checkpoint)
        return changed


def undo(store: SessionStore, session_id: str, workspace: Path, steps: int = 1) -> tuple[int, list[str]]:
    """Restore the workspace to before the `steps`-th last changing step of the session and tell
    the session (the model sees it next turn). Returns (the step it went back to, changed paths)."""
    marks = [e for e in store.events(session_id) if isinstance(e, Checkpointed)]
    if not marks:
        raise HearthError(
            "This session has no checkpoints to go back to.", "Only steps that change files make one."
        )
    if steps < 1 or steps > len(marks):
        raise HearthError(
            f"Cannot undo {steps} step(s); this session has {len(marks)}.", "Give a smaller number."
        )
    target = marks[-steps]
    changed = Checkpoints(workspace).restore(target.id)
    files = ", ".join(changed[:20]) or "nothing had changed"
    store.append(
        session_id,
        Notice(reason="undo", text=render("notice_undo", count=steps, step=target.step, files=files)),
    )
    return target.step, changed
