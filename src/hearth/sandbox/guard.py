"""The agent's control files: what a command may not create or change without the user.

Git's own settings, Hearth's config, MCP configs, editor task files: a command
that writes one of these could run code on the host later (through the user's
`git status` or `git commit`, the next Hearth start, or the editor).

Git is governed as a class: every git directory in the workspace, at any depth
(each `.git` folder, each `.git/modules/*` repository, each folder git would
take for a bare repository), may change only in its data (objects, refs, logs,
index, HEAD and the other state files in `WRITABLE`); everything else in it
(config, hooks, info, commondir, worktrees, alternates, ...) is unchangeable,
and a `.git` file or symlink may not appear or change. A git directory the
command created (`git init`) is made safe instead of removed: its config keeps
only the keys in `SAFE_CONFIG_KEYS`, its hooks only the `*.sample` files.

The guard works on directory file descriptors only: it never follows a
symlink, never reads or writes outside the workspace, and reports what it
could not do instead of raising. bwrap also mounts the unchangeable parts
read-only (`mounts`); under Landlock and the process runner this guard is the
protection, applied when each command or background job ends.
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from hearth.sandbox.dirfd import (
    CONTENT_CAP,
    DIR_FLAGS,
    Entry,
    join,
    list_dir,
    open_path,
    opened,
    read_entry,
    remove_tree,
    write,
)
from hearth.sandbox.gitconfig import TRUSTED_KEYS, config_pairs, key_shape, sanitize_config

__all__ = [
    "CONTENT_CAP",
    "Report",
    "Snapshot",
    "mounts",
    "open_path",
    "restore",
    "settle_repository",
    "snapshot",
]

CONTROL_PATTERNS = (
    ".git/hooks",
    ".git/config",
    "*/.git/hooks",
    "*/.git/config",
    ".hearth/config.toml",
    ".hearth/hooks",
    ".hearth/mcp.json",
    ".hearth/schedules.toml",
    ".hearth/skills",
    ".mcp.json",
    "mcp.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".vscode/launch.json",
    ".agent",
    ".claude",
    ".cursor",
    ".envrc",
)
# Workspace-level control entries (their whole subtree) and the folders that hold them.
CONTROL_ROOTS = tuple(p for p in CONTROL_PATTERNS if not p.startswith(("*", ".git/")))
CONTAINERS = (".hearth", ".vscode")

# What a command may change in a git directory; everything else there is unchangeable.
WRITABLE = (
    "objects",
    "refs",
    "logs",
    "index",
    "HEAD",
    "*_HEAD",
    "*_MSG",
    "*_EDITMSG",
    "MERGE_MODE",
    "MERGE_RR",
    "MERGE_AUTOSTASH",
    "AUTO_MERGE",
    "BISECT_*",
    "NOTES_MERGE_*",
    "packed-refs",
    "shallow",
    "description",
    "gc.pid",
    "gc.log",
    "rr-cache",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
    "lost-found",
    "lfs",
    "annex",
    "sharedindex.*",
    "*.lock",
)
INFO_WRITABLE = ("refs", "sparse-checkout", "*.lock")
# In a folder git would take for a bare repository, these names are its settings.
GIT_SETTINGS = (
    "config",
    "config.worktree",
    "commondir",
    "hooks",
    "info",
    "worktrees",
    "modules",
    "branches",
    "remotes",
)
ALTERNATES = ("objects/info/alternates", "objects/info/http-alternates")
CONTENT_BUDGET = 64 << 20  # content kept per scan in all
FD_DEPTH = 64  # the walk holds one descriptor per level down to here, then reopens from the root


@dataclass
class Snapshot:
    entries: dict[str, Entry] = field(default_factory=dict)  # relative path -> what is there
    git_dirs: dict[str, str] = field(default_factory=dict)  # relative path -> "dotgit", "module", "bare"
    errors: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # where the scan failed ("" for all of it)
    trusted: list[str] = field(default_factory=list)  # workspace files the user's git config points at

    def read(self, rel: str) -> bool:
        """True when the scan saw `rel`'s folder, so `rel` missing from it means it was not there."""
        return not any(u == "" or rel == u or rel.startswith(u + "/") for u in self.unread)


@dataclass
class Report:
    """What the guard undid after a command, and what it could not do."""

    undone: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.undone or self.errors)

    def message(self, most: int = 20) -> str:
        parts = []
        if self.undone:
            parts.append(
                f"[hearth: changes to control files were undone: {_listed(self.undone, most, ', ')}. "
                "They need the user's approval.]"
            )
        if self.errors:
            parts.append(
                f"[hearth: control files could not all be checked: {_listed(self.errors, most, '; ')}]"
            )
        return "\n".join(parts)


def _listed(items: list[str], most: int, sep: str) -> str:
    shown = sep.join(item if len(item) < 300 else item[:300] + "…" for item in items[:most])
    return shown + (f"{sep}and {len(items) - most} more" if len(items) > most else "")


def is_control_path(rel: str) -> bool:
    """True when `rel` (relative to the workspace) is a control file or inside one."""
    parts = PurePosixPath(rel).parts
    if ".git" in parts:
        return True
    prefixes = ("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return any(fnmatch.fnmatchcase(p, pat) for p in prefixes for pat in CONTROL_PATTERNS)


def _writable(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pat) for pat in WRITABLE)


def _looks_like_git_dir(fd: int, names: dict[str, str]) -> bool:
    """What git's own test accepts: a HEAD, and objects and refs here or through `commondir`."""
    if names.get("HEAD") not in ("file", "link"):
        return False
    return (names.get("objects") == "dir" and names.get("refs") == "dir") or "commondir" in names


class _Scan:
    def __init__(self, root_fd: int, trusted: list[str] | None = None) -> None:
        """`trusted`: the paths an earlier scan found in the users' git config (None: find them)."""
        self.root_fd = root_fd
        self.given = trusted
        self.snap = Snapshot()
        self.budget = CONTENT_BUDGET  # bytes of content kept in all; past it, files are known by stamp
        self.deep: list[str] = []  # folders past FD_DEPTH, walked afterwards from the root

    def run(self) -> Snapshot:
        self._controls()
        self._walk(self.root_fd, "")
        while self.deep:  # folders nested past FD_DEPTH: one at a time, opened from the root
            rel = self.deep.pop()
            try:
                with opened(self.root_fd, rel) as fd:
                    self._walk(fd, rel, deep=True)
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(rel, exc)
        self.snap.trusted = self._trusted() if self.given is None else list(self.given)
        for rel in self.snap.trusted:
            self._trusted_entry(rel)
        return self.snap

    def _trusted(self) -> list[str]:
        """Files in the workspace that a repository's config (the user's: a new repository's is
        made safe) tells git to run or read: `core.hooksPath` hooks, includes, fsmonitor."""
        found: set[str] = set()
        for g, kind in self.snap.git_dirs.items():
            entry = self.snap.entries.get(join(g, "config"))
            if entry is None or entry.kind != "file" or entry.digest:
                continue
            low = entry.data.lower()
            if not any(k in low for k in (b"hookspath", b"include", b"fsmonitor", b"attributesfile")):
                continue
            worktree = g.rpartition("/")[0] if kind == "dotgit" else g
            for key, value in config_pairs(entry.data) or []:
                shape = key_shape(key)
                if not value or shape not in TRUSTED_KEYS or value.lower() in ("true", "false"):
                    continue
                base = g if shape.startswith("include") else worktree
                rel = self._inside(base, value.split()[0] if shape == "core.fsmonitor" else value)
                if rel is not None and rel != worktree and not g.startswith(rel + "/"):
                    found.add(rel)
        return sorted(found)

    def _inside(self, base: str, value: str) -> str | None:
        if value.startswith("~") or value.startswith(":("):
            return None
        if os.path.isabs(value):
            root = os.readlink(f"/proc/self/fd/{self.root_fd}") if os.path.exists("/proc/self/fd") else ""
            if not root or not value.startswith(root.rstrip("/") + "/"):
                return None
            value, base = value[len(root.rstrip("/")) + 1 :], ""
        rel = os.path.normpath(os.path.join(base, value)) if base else os.path.normpath(value)
        return None if rel in (".", "") or rel.startswith("..") else rel

    def _trusted_entry(self, rel: str) -> None:
        """A trusted file, or a hooks folder and the files directly in it."""
        parent, _, name = rel.rpartition("/")
        try:
            with opened(self.root_fd, parent) as fd:
                entry = read_entry(fd, name)
                if entry is None:
                    return
                self.snap.entries[rel] = entry
                if entry.kind == "dir":
                    with opened(fd, name) as sub:
                        for child, kind in list_dir(sub).items():
                            if kind != "dir":
                                self.snap.entries[join(rel, child)] = read_entry(sub, child) or Entry("other")
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                self._error(rel, exc)

    def _error(self, rel: str, exc: OSError) -> None:
        self.snap.errors.append(f"{rel or '.'}: {exc.strerror or exc}")
        self.snap.unread.append(rel)

    def _controls(self) -> None:
        for name in CONTAINERS:
            with contextlib.suppress(OSError):
                entry = read_entry(self.root_fd, name)
                if entry is not None:
                    self.snap.entries[name] = entry
        for rel in CONTROL_ROOTS:
            parent, _, name = rel.rpartition("/")
            try:
                with opened(self.root_fd, parent) as fd:
                    self._tree(fd, name, rel)
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError as exc:
                if exc.errno != errno.ELOOP:
                    self._error(rel, exc)

    def _walk(self, fd: int, rel: str, deep: bool = False) -> None:
        dirs: list[str] = []
        dotgit: str | None = None
        head = False
        try:
            with os.scandir(fd) as it:
                for e in it:
                    is_dir = e.is_dir(follow_symlinks=False)
                    if e.name == ".git":
                        dotgit = "dir" if is_dir else "link" if e.is_symlink() else "file"
                    elif is_dir:
                        dirs.append(e.name)
                    elif e.name == "HEAD":
                        head = True
            if head:
                names = list_dir(fd)
                if _looks_like_git_dir(fd, names):
                    self._git_dir(fd, rel, "bare", names)
                    skip = {*GIT_SETTINGS, "objects"}
                    dirs = [d for d in dirs if d not in skip]
        except OSError as exc:
            self._error(rel, exc)
            return
        if dotgit is not None:
            self._dotgit(fd, join(rel, ".git"), dotgit)
        for name in dirs:
            child = join(rel, name)
            if deep or child.count("/") >= FD_DEPTH:
                self.deep.append(child)
                continue
            try:
                sub = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(child, exc)
                continue
            try:
                self._walk(sub, child)
            finally:
                os.close(sub)

    def _dotgit(self, parent_fd: int, rel: str, kind: str) -> None:
        if kind != "dir":
            self._tree(parent_fd, ".git", rel)
            return
        try:
            fd = os.open(".git", DIR_FLAGS, dir_fd=parent_fd)
        except OSError:
            self._tree(parent_fd, ".git", rel)  # swapped meanwhile: record what is there now
            return
        try:
            st = os.fstat(fd)
            self.snap.entries[rel] = Entry("dir", ident=(st.st_dev, st.st_ino))
            self._git_dir(fd, rel, "dotgit", None)
        finally:
            os.close(fd)

    def _git_dir(self, fd: int, rel: str, kind: str, names: dict[str, str] | None) -> None:
        self.snap.git_dirs[rel] = kind
        try:
            names = list_dir(fd) if names is None else names
        except OSError as exc:
            self._error(rel, exc)
            return
        for name, what in names.items():
            child = join(rel, name)
            if what == "link" and (kind != "bare" or name in ("refs", "logs", "objects", "index")):
                if name == "HEAD" and os.readlink(name, dir_fd=fd).startswith("refs/"):
                    continue  # git's old symbolic HEAD
                self._tree(fd, name, child)  # git writes through it: a way out of the workspace
            elif name == "objects":
                self._alternates(fd, child, what)
                self._links(fd, name, child, nested=False)
            elif what == "dir" and (name in ("refs", "logs") or (kind != "bare" and _writable(name))):
                self._links(fd, name, child, nested=name not in ("lfs", "annex"))
            elif name == "modules" and what == "dir":
                self._modules(fd, child)
            elif name == "info" and what == "dir":
                self._info(fd, child)
            elif name in GIT_SETTINGS if kind == "bare" else not _writable(name):
                self._tree(fd, name, child)

    def _info(self, parent_fd: int, rel: str) -> None:
        """`info/`: exclude, attributes, grafts... unchangeable; `refs` (dumb HTTP) and
        `sparse-checkout` are data git commands write."""
        self.snap.entries[rel] = Entry("dir")
        try:
            with opened(parent_fd, "info") as fd:
                for name in list_dir(fd):
                    if not any(fnmatch.fnmatchcase(name, pat) for pat in INFO_WRITABLE):
                        self._tree(fd, name, join(rel, name))
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                self._error(rel, exc)

    def _links(self, parent_fd: int, name: str, rel: str, nested: bool) -> None:
        """Symlinks in git's data folders (which git itself never makes): the user's git would
        append reflogs or write objects through them, outside the workspace."""
        todo = [(rel, name, parent_fd)]
        while todo:
            cur, leaf, pfd = todo.pop()
            try:
                with opened(pfd, leaf) if pfd != -1 else opened(self.root_fd, cur) as fd:
                    for child, kind in list_dir(fd).items():
                        if kind == "link":
                            self._tree(fd, child, join(cur, child))
                        elif kind == "dir" and nested:
                            todo.append((join(cur, child), "", -1))
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(cur, exc)

    def _alternates(self, fd: int, rel: str, kind: str) -> None:
        if kind != "dir":
            self._tree(fd, "objects", rel)
            return
        try:
            with opened(fd, "objects") as objects:
                info = read_entry(objects, "info")
                if info is None:
                    return
                if info.kind != "dir":
                    self.snap.entries[rel + "/info"] = info
                    return
                with opened(objects, "info") as info_fd:
                    for name in ("alternates", "http-alternates"):
                        self._tree(info_fd, name, f"{rel}/info/{name}")
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                self._error(rel, exc)

    def _modules(self, parent_fd: int, rel: str) -> None:
        """`.git/modules`: folders down to each submodule's repository, which is a git dir itself."""
        name = rel.rpartition("/")[2]
        if rel.count("/") > FD_DEPTH:
            self._tree(parent_fd, name, rel)  # no repository is that deep; keep it all as it is
            return
        try:
            entry = read_entry(parent_fd, name)
            if entry is None:
                return
            self.snap.entries[rel] = entry
            if entry.kind != "dir":
                return
            with opened(parent_fd, name) as fd:
                names = list_dir(fd)
                if _looks_like_git_dir(fd, names):
                    self._git_dir(fd, rel, "module", names)
                    return
                for child, kind in names.items():
                    if kind == "dir":
                        self._modules(fd, join(rel, child))
                    else:
                        self._tree(fd, child, join(rel, child))
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                self._error(rel, exc)

    def _tree(self, parent_fd: int, name: str, rel: str) -> None:
        """Record `name` and, for a real folder, everything under it. No recursion (any depth
        works): what is below is opened again from the workspace root, step by step."""
        todo = [rel]
        while todo:
            cur = todo.pop()
            parent, _, leaf = cur.rpartition("/")
            start = contextlib.nullcontext(parent_fd) if cur == rel else opened(self.root_fd, parent)
            try:
                with start as pfd:
                    entry = read_entry(pfd, name if cur == rel else leaf, min(CONTENT_CAP, self.budget))
                    if entry is None:
                        continue
                    if entry.kind == "file" and not entry.digest:
                        self.budget -= len(entry.data)
                    self.snap.entries[cur] = entry
                    if entry.kind == "dir":
                        with opened(pfd, name if cur == rel else leaf) as fd:
                            todo += [join(cur, child) for child in list_dir(fd)]
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(cur, exc)


def _open_root(workspace: Path) -> int:
    return os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def snapshot(workspace: Path) -> Snapshot:
    """The control files of the workspace as they are now. Never raises."""
    try:
        root = _open_root(workspace)
    except OSError as exc:
        return Snapshot(errors=[f"{workspace}: {exc.strerror}"], unread=[""])
    try:
        return _Scan(root).run()
    except Exception as exc:  # reported with the command's result, never a crash of the loop
        return Snapshot(errors=[f"{workspace}: {exc}"], unread=[""])
    finally:
        os.close(root)


def restore(workspace: Path, before: Snapshot) -> Report:
    """Undo changes to control files since `before`. Never follows a symlink, never raises."""
    report = Report()
    try:
        root = _open_root(workspace)
    except OSError as exc:
        report.errors.append(f"{workspace}: {exc.strerror}")
        return report
    try:
        _Restore(root, before, report).run()
    except Exception as exc:  # a failure is reported to the model, never a crash of the loop
        report.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        os.close(root)
    return report


def _depth_first(paths: list[str]) -> list[str]:
    return sorted(paths, key=lambda p: (p.count("/"), p))


class _Restore:
    def __init__(self, root_fd: int, before: Snapshot, report: Report) -> None:
        self.root = root_fd
        self.before = before
        self.report = report
        self._gone: list[str] = []  # folders not to recreate (a removed repository), nor what is in them

    def run(self) -> None:
        for rel in _depth_first(list(self.before.entries)):
            self._put_back(rel, self.before.entries[rel])
        after = _Scan(self.root, self.before.trusted).run()
        self.report.errors.extend(
            e for e in (*self.before.errors, *after.errors) if e not in self.report.errors
        )
        new = [r for r in after.entries if r not in self.before.entries and self.before.read(r)]
        removed: set[str] = set()
        for rel in _depth_first(new):  # top down: a removed folder takes everything in it along
            parts = rel.split("/")
            if any("/".join(parts[:i]) in removed for i in range(1, len(parts))):
                continue
            if self._new(rel, after):
                removed.add(rel)

    def _done(self, rel: str, note: str = "") -> None:
        self.report.undone.append(rel + note)

    def _fail(self, rel: str, exc: OSError | str) -> None:
        text = exc if isinstance(exc, str) else (exc.strerror or str(exc))
        self.report.errors.append(f"{rel}: {text}")

    def _put_back(self, rel: str, want: Entry) -> None:
        if any(rel.startswith(g + "/") for g in self._gone):
            return
        parent, _, name = rel.rpartition("/")
        try:
            with opened(self.root, parent) as fd:
                now = read_entry(fd, name, 0 if want.digest else CONTENT_CAP)
                if now == want:
                    return
                if want.kind == "dir":
                    self._put_back_dir(fd, rel, name, now, want)
                    return
                if want.kind == "other":
                    self._fail(rel, "a special file changed and cannot be put back")
                    return
                if want.digest:
                    self._fail(rel, "too large to put back")
                    return
                if now is not None and now.kind == "dir":
                    remove_tree(fd, name)
                write(fd, name, want)
                self._done(rel)
        except FileNotFoundError:
            return  # its folder is gone with a repository the command removed; nothing to run there
        except OSError as exc:
            self._fail(rel, exc)

    def _put_back_dir(self, fd: int, rel: str, name: str, now: Entry | None, want: Entry) -> None:
        repository = rel in self.before.git_dirs
        if now is not None:
            os.unlink(name, dir_fd=fd)  # a file, symlink or special file put in the folder's place
        moved = self._find(want.ident, rel)
        if moved is not None:
            src_parent, _, src_name = moved.rpartition("/")
            with opened(self.root, src_parent) as src_fd:
                os.rename(src_name, name, src_dir_fd=src_fd, dst_dir_fd=fd)
            self._done(rel, f" (moved back from {moved})")
        elif repository:
            self._gone.append(rel)  # a removed repository is not recreated empty
            if now is not None:
                self._done(rel)
        else:
            os.mkdir(name, 0o755, dir_fd=fd)
            self._done(rel)

    def _find(self, ident: tuple[int, int], skip: str) -> str | None:
        """Where in the workspace the folder `ident` is now (a renamed original), if anywhere."""
        if ident == (0, 0):
            return None

        def walk(fd: int, rel: str) -> str | None:
            with os.scandir(fd) as it:
                dirs = [e.name for e in it if e.is_dir(follow_symlinks=False)]
            for d in dirs if rel.count("/") < FD_DEPTH else []:
                child = join(rel, d)
                st = os.stat(d, dir_fd=fd, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == ident and child != skip:
                    return child
                with contextlib.suppress(OSError), opened(fd, d) as sub:
                    found = walk(sub, child)
                    if found:
                        return found
            return None

        return walk(self.root, "")

    def _new(self, rel: str, after: Snapshot) -> bool:
        """Something that was not there before: made safe when part of a new repository, else
        removed (then True)."""
        parent, _, name = rel.rpartition("/")
        home = _owner(rel, after.git_dirs)
        fresh = home is not None and home not in self.before.git_dirs and not _under_control_root(rel)
        try:
            with opened(self.root, parent) as fd:
                now = read_entry(fd, name)
                if now is None:
                    return True  # already gone (with a folder put back or removed)
                sub = rel[len(home) :].lstrip("/") if home is not None else rel
                if fresh and _keep_in_new_repo(sub, now):
                    if sub == "config" and sanitize_config(fd, name):
                        self._done(rel, " (unsafe settings removed)")
                    return False
                if rel in after.git_dirs and rel not in self.before.git_dirs and now.kind == "dir":
                    return False  # a new repository: its parts are made safe one by one
                if rel in CONTAINERS and now.kind == "dir":
                    return False
                remove_tree(fd, name)
                self._done(rel)
                return True
        except FileNotFoundError:
            return True
        except OSError as exc:
            self._fail(rel, exc)
            return False


def _owner(rel: str, git_dirs: dict[str, str]) -> str | None:
    """The innermost git dir `rel` is in (not `rel` itself)."""
    best = None
    for g in git_dirs:
        if (g == "" or rel.startswith(g + "/")) and rel != g and (best is None or len(g) > len(best)):
            best = g
    return best


def _under_control_root(rel: str) -> bool:
    return any(rel == c or rel.startswith(c + "/") for c in CONTROL_ROOTS)


def _keep_in_new_repo(sub: str, entry: Entry) -> bool:
    """In a repository the command created: what may stay (config is then made safe)."""
    if entry.kind == "dir":
        return sub in ("hooks", "info", "branches", "modules") or sub.startswith("modules/")
    if entry.kind != "file":
        return False
    if sub in ("config", "info/exclude"):
        return True
    return sub.startswith("hooks/") and sub.count("/") == 1 and sub.endswith(".sample")


def mounts(workspace: Path) -> tuple[list[str], list[str]]:
    """For bwrap: git dirs to pin in place (bound over themselves, so they cannot be renamed or
    removed), then the existing unchangeable parts to bind read-only. Relative paths; no symlinks."""
    snap = snapshot(workspace)
    pins = [g for g in snap.git_dirs if g and not g.startswith(".hearth/")]
    readonly = []
    for rel, entry in snap.entries.items():
        if entry.kind not in ("dir", "file") or rel in snap.git_dirs or rel.startswith(".hearth/"):
            continue
        parent, _, name = rel.rpartition("/")
        if name in ("modules", "info") and entry.kind == "dir" and parent in snap.git_dirs:
            continue  # submodules' repositories, and info/'s files, are protected one by one
        up, _, folder = parent.rpartition("/")
        in_info = folder == "info" and up in snap.git_dirs
        trusted = rel in snap.trusted or parent in snap.trusted
        if (
            rel in CONTROL_ROOTS
            or parent in snap.git_dirs
            or in_info
            or trusted
            or rel.endswith(ALTERNATES)
            or name == ".git"
        ):
            readonly.append(rel)
    return _depth_first(pins), _depth_first(readonly)


REDIRECTS = ("commondir", "config.worktree", "worktrees", "modules", "info/attributes", *ALTERNATES)


def settle_repository(workspace: Path, rel: str, config: bytes, exclude: bytes) -> list[str]:
    """Make the git dir `rel` (Hearth's own) hold exactly `config` and `exclude` and nothing that
    sends git elsewhere (commondir, alternates, ...). Returns what it fixed. Raises OSError when
    a step of `rel` is a symlink or not a folder: such a repository must not be used."""
    fixed = []
    root = _open_root(workspace)
    try:
        with opened(root, rel) as fd:
            for name, want in (("config", config), ("info/exclude", exclude)):
                parent, _, leaf = name.rpartition("/")
                if parent and read_entry(fd, parent) is None:
                    os.mkdir(parent, 0o755, dir_fd=fd)
                with opened(fd, parent) as pfd:
                    if read_entry(pfd, leaf) != Entry("file", want, 0o644):
                        now = read_entry(pfd, leaf)
                        if now is not None and now.kind == "dir":
                            remove_tree(pfd, leaf)
                        write(pfd, leaf, Entry("file", want, 0o644))
                        fixed.append(name)
            for name in REDIRECTS:
                parent, _, leaf = name.rpartition("/")
                try:
                    with opened(fd, parent) as pfd:
                        if read_entry(pfd, leaf) is not None:
                            remove_tree(pfd, leaf)
                            fixed.append(name)
                except (FileNotFoundError, NotADirectoryError):
                    continue
    finally:
        os.close(root)
    return fixed
