"""Checkpoints of the workspace in a shadow git repository, so a step can be undone.

The repository lives in the workspace's state folder (`checkpoints.git` in `config.state_dir`,
outside the workspace) with the workspace as its work tree: the user's own git history is never
touched, and folders that are not repositories work too. It honours the workspace's .gitignore
and never records `.git/` or `.hearth/`. A `.hearth/checkpoints.git` inside the workspace (an
older Hearth's, or one a repository ships) is never used.

A checkpoint id comes from the session's events, so it is checked to be an object id (40 or 64
hex digits) before git sees it, and follows `--end-of-options`: it can never be an option.

This git runs on the host, so nothing a sandboxed command wrote may steer it: no system or
global config, hooks and fsmonitor off, and before every use the shadow repository's config
is put back to Hearth's own (so no filter, diff or merge driver a `.gitattributes` names
exists) and anything that sends git elsewhere (commondir, alternates, ...) is removed; a
repository reached through a symlink is refused.
"""

from __future__ import annotations

import re
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.core.events import Checkpointed, Event, Notice, NoticeReason
from hearth.prompts import render
from hearth.runtime.config import state_dir
from hearth.sandbox import guard
from hearth.store.sessions import SessionStore

SAFE_SETTINGS = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.autocrlf=false",
    "core.attributesFile=/dev/null",
    "core.pager=cat",
    "core.sshCommand=false",
    "diff.external=",
    "submodule.recurse=false",
    "protocol.allow=never",
    "gc.auto=0",
    "maintenance.auto=false",
    "user.name=Hearth checkpoints",
    "user.email=hearth@localhost",
    "commit.gpgsign=false",
)
SAFE = tuple(part for setting in SAFE_SETTINGS for part in ("-c", setting))
SHADOW_CONFIG = b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"
EXCLUDE = b".git/\n.hearth/\n"
RELATIVE_DIR = "checkpoints.git"  # in the state folder
_LOCK = threading.Lock()  # one git at a time in the shadow repositories: they share an index lock
OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def object_id(value: str) -> str:
    """`value` when it is a full git object id (SHA-1 or SHA-256); else a clear refusal."""
    if not isinstance(value, str) or not OBJECT_ID.fullmatch(value):
        raise HearthError(
            f"The checkpoint id {str(value)[:80]!r} is not a git object id; refusing to use it.",
            "The session's record was changed by something other than Hearth; undo cannot use it.",
        )
    return value


def _env() -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_NO_REPLACE_OBJECTS": "1",
        "HOME": "/nonexistent",
        "GIT_TERMINAL_PROMPT": "0",
    }


@dataclass
class Checkpoints:
    workspace: Path
    # (tree, commit) of the last snapshot: a workspace that has not changed since gets that
    # commit again instead of a new empty one (one git process fewer per changing step)
    _last: tuple[str, str] | None = field(default=None, init=False, repr=False)

    @property
    def root(self) -> Path:
        return state_dir(self.workspace)

    @property
    def git_dir(self) -> Path:
        return self.root / RELATIVE_DIR

    def _git(self, *args: str, check: bool = True) -> str:
        self._settle()
        cmd = ["git", f"--git-dir={self.git_dir}", f"--work-tree={self.workspace}", *SAFE, *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=self.workspace)
        if check and proc.returncode != 0:
            raise HearthError(f"Checkpoint git failed: {proc.stderr.strip()[:300]}", "Is git installed?")
        return proc.stdout.strip()

    def _settle(self) -> None:
        """Hearth's own config and nothing that redirects git, checked right before each use."""
        try:
            guard.settle_repository(self.root, RELATIVE_DIR, SHADOW_CONFIG, EXCLUDE)
        except OSError as exc:
            raise HearthError(
                f"The checkpoint repository {self.git_dir} is not a plain folder ({exc.strerror}).",
                "Something replaced it (a symlink?); move it away and Hearth starts a new one.",
            ) from None

    def _ensure(self) -> None:
        for path in (self.root, self.git_dir):
            if path.is_symlink():
                raise HearthError(
                    f"{path} is a symlink; Hearth keeps its checkpoints only in a plain folder.",
                    "Remove the symlink; Hearth then starts a new checkpoint repository.",
                )
        if (self.git_dir / "HEAD").exists():
            return
        init = ["git", "init", "-q", "--bare", "--template=", str(self.git_dir)]
        subprocess.run(init, check=True, capture_output=True, env=_env(), cwd=self.workspace)

    def snapshot(self, label: str) -> str:
        """Record the workspace as it is now; returns the checkpoint id. Runs in a thread (see
        agent/loop.py): sessions of one process on one workspace take turns."""
        with _LOCK:
            return self._snapshot(label)

    def _snapshot(self, label: str) -> str:
        self._ensure()
        self._git("add", "-A", "--", ".")
        tree = self._git("write-tree")
        if self._last is not None and self._last[0] == tree:
            return self._last[1]  # the same files: the same checkpoint (commits are never collected)
        self._git("commit", "-q", "--allow-empty", "--no-verify", "-m", label)
        head = self._git("rev-parse", "HEAD")
        self._last = (tree, head)
        return head

    def history(self) -> list[tuple[str, str]]:
        """(id, label) newest first."""
        if not (self.git_dir / "HEAD").exists():
            return []
        out = self._git("log", "--format=%H %s", check=False)
        return [(line[:40], line[41:]) for line in out.splitlines() if line]

    def restore(self, checkpoint: str) -> list[str]:
        """Put the workspace back as it was at `checkpoint`; returns the paths that changed."""
        checkpoint = object_id(checkpoint)
        with _LOCK:
            self._ensure()
            if self._git("cat-file", "-t", "--end-of-options", checkpoint, check=False) != "commit":
                raise HearthError(
                    f"The checkpoint {checkpoint[:12]} is not in this workspace's checkpoint repository.",
                    f"It may come from an older Hearth's store; the repository is {self.git_dir}.",
                )
            self._snapshot("before undo")  # so the undo itself can be undone
            changed = self._git("diff", "--name-only", "--end-of-options", checkpoint, "HEAD").splitlines()
            # git 2.39's reset refuses --end-of-options; the id is checked hex, and `--` ends it.
            self._git("reset", "-q", "--hard", checkpoint, "--")
            self._last = None
        return changed

    def changed(self, before: str, after: str) -> list[str]:
        """The paths that differ between two checkpoints."""
        ids = (object_id(before), object_id(after))  # ids read from a session: checked, never options
        return self._git("diff", "--name-only", "--end-of-options", *ids).splitlines()


def undo(store: SessionStore, session_id: str, workspace: Path, steps: int = 1) -> tuple[int, list[str]]:
    """Restore the workspace to before the `steps`-th last step of the session that changed files
    and is not undone yet, and tell the session (the model sees it next turn). Each undo is recorded
    with the checkpoint it went back to, so the next one goes further back, not to the same place.
    Returns (the step it went back to, changed paths)."""
    events = store.events(session_id)
    if not any(isinstance(e, Checkpointed) for e in events):
        raise HearthError(
            "This session has no checkpoints to go back to.", "Only steps that change files make one."
        )
    points = Checkpoints(workspace)
    left = undoable(events, points, points.snapshot("now"))
    if not left:
        raise HearthError(
            "No step of this session that changed files is left to undo.",
            "Earlier undos went back over all of them; `hearth sessions show` lists what happened.",
        )
    if steps < 1 or steps > len(left):
        raise HearthError(
            f"Cannot undo {steps} step(s); {len(left)} step(s) of this session changed files and are not undone.",
            "Give a smaller number.",
        )
    target = left[-steps]
    changed = points.restore(target.id)
    files = ", ".join(changed[:20]) or "nothing had changed"
    text = render("notice_undo", count=steps, step=target.step, files=files)
    store.append(session_id, Notice(reason=NoticeReason.UNDO, text=text, checkpoint=target.id))
    return target.step, changed


def undoable(events: list[Event], points: Checkpoints, now: str) -> list[Checkpointed]:
    """The checkpoints before steps that changed files (the workspace differs at the next
    checkpoint, or now for the last), without those an undo already went back over."""
    marks = [e for e in events if isinstance(e, Checkpointed)]
    after = {m.id: (marks[k + 1].id if k + 1 < len(marks) else now) for k, m in enumerate(marks)}
    left: list[Checkpointed] = []
    for event in events:
        if isinstance(event, Checkpointed) and points.changed(event.id, after[event.id]):
            left.append(event)
        elif isinstance(event, Notice) and event.reason == NoticeReason.UNDO and event.checkpoint:
            ids = [m.id for m in left]
            if event.checkpoint in ids:
                del left[ids.index(event.checkpoint) :]
    return left
