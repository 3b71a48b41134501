"""Git tools. Git runs in the sandbox with hooks, fsmonitor and submodule recursion off.

A repository's own config can name programs for git to run (hooks,
`core.fsmonitor`, `core.sshCommand`, pagers, diff drivers); every call here
overrides those, and runs confined even so.

No sandbox hides what git keeps in its objects, so `git_diff` leaves every secret file out (the
one predicate of sandbox/secrets.py, as pathspec excludes, and each section naming one dropped
from the output too), and `git_log` prints commits, never their content.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.dirfd import read_entry
from hearth.sandbox.gitconfig import config_pairs, user_identity
from hearth.sandbox.secrets import SECRET_DIRS, SECRET_NAMES, is_secret_path, secret_index
from hearth.tools.base import RunContext, Tool, ToolInput

SAFE_CONFIG = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "submodule.recurse=false",
    "core.pager=cat",
    "core.sshCommand=false",
    "diff.external=",
    "core.editor=true",
    "protocol.ext.allow=never",
    "protocol.file.allow=never",
    "credential.helper=",
    "safe.directory=*",
    "color.ui=false",
)
_BAD_REF = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|/\.|\.lock$|\.lock/|^[-./]|[/.]$")


def validate_ref(name: str) -> str:
    """Git's ref-name rules (check-ref-format), plus no leading '-' so it is never an option."""
    if not name or name == "@" or _BAD_REF.search(name):
        raise ToolError(
            f"{name!r} is not a valid branch name (no spaces, '..', '~^:?*[\\', leading '-' or '.')."
        )
    return name


def _repo_identity(workspace: Path) -> dict[str, str]:
    """The identity the repository's own config sets (`user.name`, `user.email`), which a commit
    keeps: read on the host without following a symlink, as git reads it (no includes)."""
    try:
        fd = os.open(workspace / ".git", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return {}
    try:
        entry = read_entry(fd, "config")
    except OSError:
        return {}
    finally:
        os.close(fd)
    if entry is None or entry.kind != "file" or entry.digest:
        return {}
    pairs = config_pairs(entry.data) or []
    return {k: v for k, v in pairs if k in ("user.name", "user.email") and v}


async def _git(ctx: RunContext, *args: str) -> str:
    if ctx.sandbox is None:
        raise ToolError("No sandbox is configured for this session, so git cannot run.")
    name, email = user_identity()
    own = _repo_identity(ctx.workspace)  # the repository's own identity wins over ours
    name, email = own.get("user.name", name), own.get("user.email", email)
    config = [*SAFE_CONFIG, f"user.name={name}", f"user.email={email}"]
    argv = ["git", "--no-pager", *[part for c in config for part in ("-c", c)], *args]
    command = "GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0 " + shlex.join(argv)
    result = await ctx.sandbox.run(ExecSpec(command=command, cwd=ctx.workspace, timeout=60))
    out = result.output.rstrip()
    if result.exit_code != 0:
        if "not a git repository" in out:
            raise ToolError(
                "The workspace is not a git repository (run `git init` with the shell tool first)."
            )
        raise ToolError(f"git {args[0]} failed: {out or result.killed}")
    return out


class GitStatusInput(ToolInput):
    """Show git status."""


async def git_status(args: GitStatusInput, ctx: RunContext) -> str:
    return await _git(ctx, "status", "--short", "--branch") or "Nothing to report."


class GitDiffInput(ToolInput):
    """Show unstaged changes, or staged ones with staged=true."""

    path: str | None = None
    staged: bool = False


async def git_diff(args: GitDiffInput, ctx: RunContext) -> str:
    cmd = ["diff", "--no-ext-diff", "--no-textconv", "--no-renames"] + (["--staged"] if args.staged else [])
    cmd += ["--", *([str(ctx.paths.resolve(args.path))] if args.path else []), *_secret_excludes(ctx)]
    return _without_secrets(await _git(ctx, *cmd)) or "No changes."


def _secret_excludes(ctx: RunContext) -> list[str]:
    """Pathspecs that leave out every secret: by name and folder at any depth, and by path each
    one the workspace holds (hardlinks to secrets under other names included)."""
    out = [f":(exclude,glob,icase)**/{name}" for name in SECRET_NAMES]
    out += [f":(exclude,glob)**/{folder}/**" for folder in sorted(SECRET_DIRS)]
    try:
        found = secret_index(ctx.workspace).scan()
    except OSError:
        return out
    return out + [f":(exclude,literal){rel}" for rel in (*found.files, *found.dirs)]


def _without_secrets(diff: str) -> str:
    """`diff` without the file sections whose either side is a secret by name (a second line of
    defence behind the pathspecs, e.g. a section git printed for a path they did not catch)."""
    kept: list[str] = []
    skipping = False
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            names = [n.strip('"') for n in line[len("diff --git ") :].split(" ")]
            skipping = any(is_secret_path(n.split("/", 1)[-1]) for n in names if "/" in n)
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


class GitAddInput(ToolInput):
    """Stage files for the next commit."""

    paths: list[str] = Field(min_length=1)


async def git_add(args: GitAddInput, ctx: RunContext) -> str:
    resolved = [str(ctx.paths.resolve(p)) for p in args.paths]
    await _git(ctx, "add", "--", *resolved)
    return "Staged: " + ", ".join(args.paths)


class GitCommitInput(ToolInput):
    """Commit the staged changes (amend: into the last commit; squash: N last commits into one)."""

    message: str = Field(min_length=1)
    amend: bool = Field(False)
    squash: int = Field(0, ge=0)


async def git_commit(args: GitCommitInput, ctx: RunContext) -> str:
    if args.squash:
        return await _squash(args, ctx)
    amend = ("--amend",) if args.amend else ()
    return await _git(ctx, "commit", *amend, "--no-verify", "-m", args.message)


async def _squash(args: GitCommitInput, ctx: RunContext) -> str:
    """A soft reset of the last `squash` commits, then one commit of everything they and the
    staged changes hold; a commit that fails puts the branch back where it was."""
    if args.amend:
        raise ToolError("Give squash or amend, not both: squash already replaces the last commits.")
    commits = int(await _git(ctx, "rev-list", "--count", "HEAD"))
    if args.squash >= commits:
        raise ToolError(
            f"The branch has {commits} commit(s): squash can fold at most {commits - 1} of them "
            "into one (the first commit stays as it is)."
        )
    await _git(ctx, "reset", "--soft", f"HEAD~{args.squash}")
    try:
        out = await _git(ctx, "commit", "--no-verify", "-m", args.message)
    except ToolError:
        await _git(ctx, "reset", "--soft", "ORIG_HEAD")
        raise
    return f"Squashed the last {args.squash} commits into one.\n{out}"


class GitBranchInput(ToolInput):
    """List branches (no name), or create and/or switch to one."""

    name: str | None = None
    create: bool = Field(False)
    switch: bool = Field(False)


async def git_branch(args: GitBranchInput, ctx: RunContext) -> str:
    if args.name is None:
        return await _git(ctx, "branch", "--list")
    name = validate_ref(args.name)
    if args.create and args.switch:
        await _git(ctx, "switch", "--no-guess", "-c", name)
        return f"Created and switched to {name}."
    if args.create:
        await _git(ctx, "branch", "--", name)
        return f"Created branch {name}."
    if args.switch:
        await _git(ctx, "switch", "--no-guess", name)
        return f"Switched to {name}."
    raise ToolError("Say what to do with the branch: create=true, switch=true, or both.")


class GitLogInput(ToolInput):
    """Show recent commits, newest first."""

    n: int = Field(10, ge=1, le=200)


async def git_log(args: GitLogInput, ctx: RunContext) -> str:
    # Subjects only: no patch, stat or pickaxe, so no file content (a committed secret) is shown.
    return await _git(ctx, "log", f"-n{args.n}", "--format=%h %ad %an: %s", "--date=short")


def git_tools() -> list[Tool]:
    return [
        Tool("git_status", GitStatusInput, git_status, read_only=True),
        Tool("git_diff", GitDiffInput, git_diff, read_only=True),
        Tool("git_add", GitAddInput, git_add),
        Tool("git_commit", GitCommitInput, git_commit),
        Tool("git_branch", GitBranchInput, git_branch),
        Tool("git_log", GitLogInput, git_log, read_only=True),
    ]
