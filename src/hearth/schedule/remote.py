"""Workspaces named by a git remote, for `hearth worker`s on machines that share no folder.

A job may name a git remote (`hearth submit --repo URL [--ref REF] [--push BRANCH]`) instead of
a folder. The worker that takes it clones the remote into its own work folder (`worker_dir`, by
default `work/` in the user's data folder), one folder per job, checks out REF (a branch, tag or
commit; the remote's default branch without one), works the task there, and, with `--push`,
commits what the task changed and pushes it to BRANCH of the same remote. A worker that takes up
a job again after its worker died on the same machine finds the job's folder and resumes its
session there; on another machine the job starts afresh from a new clone.

A cloned repository is an untrusted workspace: whoever can push to the remote wrote it.
- Its `.hearth/config.toml` is never read: the worker's own settings apply, with only the
  workspace changed, so the repository cannot choose what may run, the sandbox, the model server
  or the key. Its `.hearth/mcp.json` and skills are used only once the user trusted the folder
  (`hearth trust`), as for any workspace, and a job's folder is new.
- A repository that carries Hearth's own state in `.hearth/` (a session database, checkpoints,
  an inbox, logs...) is refused: only the configuration a repository may legitimately carry
  (`STATE_ALLOWED`) may be there, so no shipped session or remembered approval is ever resumed.
- Git runs on the host with hooks, fsmonitor, external diff and the `ext::` transport off, and
  submodules are not fetched; the URL may not start with '-' nor name a transport helper.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.api import Settings, user_data_path

SAFE_GIT = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.pager=cat",
    "core.editor=true",
    "diff.external=",
    "submodule.recurse=false",
    "protocol.ext.allow=never",
    "commit.gpgsign=false",
    "gc.auto=0",
    "maintenance.auto=false",
)
# What a repository may carry in .hearth/: configuration, read only as far as trust allows.
STATE_ALLOWED = re.compile(
    r"^\.hearth/(config\.toml|schedules\.toml|mcp\.json|skills/.+|agents/.+|[^/]+\.md)$"
)
_BRANCH = re.compile(r"^(?!-)(?!.*\.\.)(?!.*//)(?!.*@\{)[A-Za-z0-9._/-]{1,200}(?<![./])$")
_HELPER = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")  # git's <transport>::<address> form
TIMEOUT = 600.0


@dataclass(frozen=True)
class Remote:
    url: str
    ref: str = ""
    push: str = ""  # the branch to push the result to ("" = keep it in the work folder)


def check_remote(remote: Remote) -> Remote:
    """`remote` as given, or a clear error for a URL, ref or branch git must not be handed."""
    url = remote.url.strip()
    if not url or url.startswith("-") or _HELPER.match(url) or any(c in url for c in "\n\r\0"):
        raise HearthError(
            f"{remote.url!r} is not a git remote Hearth clones.",
            "Use an https://, ssh://, git:// or file:// URL, user@host:path, or a folder's path.",
        )
    for what, value in (("--ref", remote.ref), ("--push", remote.push)):
        if value and not _BRANCH.match(value):
            raise HearthError(
                f"{what} {value!r} is not a usable branch, tag or commit name.", "Use e.g. main or v1.2."
            )
    return Remote(url, remote.ref.strip(), remote.push.strip())


def work_folder(settings: Settings) -> Path:
    return (settings.schedule.worker_dir or user_data_path() / "work").expanduser().resolve()


def job_folder(base: Path, job_id: int, url: str) -> Path:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git"))[:40]
    digest = hashlib.sha256(url.encode()).hexdigest()[:10]
    return base / f"{name or 'repo'}-{digest}-job{job_id}"


def _git(args: list[str], cwd: Path | None = None) -> str:
    cmd = ["git", *(p for s in SAFE_GIT for p in ("-c", s)), *args]
    verb = next((a for a in args if not a.startswith("-") and "=" not in a), "")
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_NO_REPLACE_OBJECTS": "1",
    }
    for name in (
        "HOME",
        "SSH_AUTH_SOCK",
        "GIT_SSH_COMMAND",
        "XDG_CONFIG_HOME",
    ):  # the worker's own credentials
        if name in os.environ:
            env[name] = os.environ[name]
    try:
        done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise HearthError(
            f"git {verb} took longer than {TIMEOUT:g}s.", "Check the remote and the network."
        ) from None
    if done.returncode != 0:
        raise HearthError(
            f"git {verb} failed: {done.stderr.strip()[-400:]}",
            "Check the remote's URL, the ref and this worker's access to it.",
        )
    return done.stdout.strip()


def checkout(base: Path, job_id: int, remote: Remote) -> tuple[Path, bool]:
    """The job's work folder with the remote checked out, and whether it was there already (a job
    taken up again on this machine: its work and session are resumed, nothing is fetched over it)."""
    folder = job_folder(base, job_id, remote.url)
    if (folder / ".git").is_dir():
        return folder, True
    base.mkdir(parents=True, exist_ok=True)
    partial = folder.with_name(folder.name + ".partial")
    if partial.exists():
        shutil.rmtree(partial)
    _git(["clone", "--no-recurse-submodules", "--quiet", "--", remote.url, str(partial)])
    if remote.ref:
        _git(["fetch", "--quiet", "origin", remote.ref], cwd=partial)
        _git(["checkout", "--quiet", "--detach", "FETCH_HEAD"], cwd=partial)
    shipped = [p for p in _git(["ls-files", "-z", "--", ".hearth"], cwd=partial).split("\0") if p]
    state = [p for p in shipped if not STATE_ALLOWED.match(p)]
    if state:
        shutil.rmtree(partial)
        raise HearthError(
            f"The repository {remote.url} carries Hearth's own state ({', '.join(state[:3])}), "
            "which a worker never takes from a remote.",
            "Remove it from the repository (git rm --cached) and add .hearth/ state to .gitignore.",
        )
    exclude = partial / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with exclude.open("a", encoding="utf-8") as out:
        out.write("\n# Hearth's state for this job\n/.hearth/\n")
    partial.rename(folder)
    return folder, False


def push_result(folder: Path, remote: Remote, job_id: int, task: str) -> str:
    """Commit what the task changed (if anything) and push HEAD to the job's branch of the remote
    it was cloned from (the URL the job named, not whatever `origin` says now); what was done."""
    _git(["add", "-A", "--", "."], cwd=folder)
    changed = _git(["status", "--porcelain", "--untracked-files=no"], cwd=folder)
    if changed:
        who = [] if _configured(folder, "user.name") else ["-c", "user.name=Hearth worker"]
        mail = [] if _configured(folder, "user.email") else ["-c", "user.email=hearth@localhost"]
        title = " ".join(task.split())[:60]
        _git(
            [*who, *mail, "commit", "--quiet", "--no-verify", "-m", f"hearth job {job_id}: {title}"],
            cwd=folder,
        )
    _git(["push", "--quiet", remote.url, f"HEAD:refs/heads/{remote.push}"], cwd=folder)
    head = _git(["rev-parse", "--short", "HEAD"], cwd=folder)
    return f"pushed {head} to {remote.push}"


def _configured(folder: Path, name: str) -> bool:
    try:
        return bool(_git(["config", "--get", name], cwd=folder))
    except HearthError:
        return False


async def prepare(base: Path, job_id: int, remote: Remote) -> tuple[Path, bool]:
    return await asyncio.to_thread(checkout, base, job_id, remote)


async def finish(folder: Path, remote: Remote, job_id: int, task: str) -> str:
    return await asyncio.to_thread(push_result, folder, remote, job_id, task)
