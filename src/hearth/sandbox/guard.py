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
import secrets
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

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
# A repository the command created keeps these config keys (lower-case section and key).
SAFE_CONFIG_KEYS = (
    "core.repositoryformatversion",
    "core.filemode",
    "core.bare",
    "core.logallrefupdates",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.symlinks",
    "core.autocrlf",
    "core.eol",
    "extensions.objectformat",
    "extensions.refstorage",
    "user.name",
    "user.email",
    "remote.*.url",
    "remote.*.pushurl",
    "remote.*.fetch",
    "branch.*.remote",
    "branch.*.merge",
    "submodule.*.url",
    "submodule.*.active",
)
# Keys of the user's own config naming workspace files git runs or reads: those files are protected.
TRUSTED_KEYS = ("core.hookspath", "core.fsmonitor", "core.attributesfile", "include.path", "includeif.*.path")
CONTENT_CAP = 16 << 20  # larger files are compared by size and times, and cannot be put back
CONTENT_BUDGET = 64 << 20  # content kept per scan in all
FD_DEPTH = 64  # the walk holds one descriptor per level down to here, then reopens from the root
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Entry:
    kind: str  # "dir", "file", "link", "other"
    data: bytes = b""  # file content (or its sha256 when too large), link target
    mode: int = 0  # permission bits of a file
    digest: bool = False  # data stands for content too large to keep: the file cannot be put back
    shared: bool = False  # a hardlink: writes through another name would change it
    ident: tuple[int, int] = field(default=(0, 0), compare=False)  # (st_dev, st_ino) of a folder


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


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def _kind(st: os.stat_result) -> str:
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    if stat.S_ISREG(st.st_mode):
        return "file"
    return "link" if stat.S_ISLNK(st.st_mode) else "other"


def _names(fd: int) -> dict[str, str]:
    """The entries of the folder `fd`: name -> kind, never following a symlink."""
    out = {}
    with os.scandir(fd) as it:
        for e in it:
            if e.is_symlink():
                out[e.name] = "link"
            elif e.is_dir(follow_symlinks=False):
                out[e.name] = "dir"
            else:
                out[e.name] = "file" if e.is_file(follow_symlinks=False) else "other"
    return out


def _read_entry(parent_fd: int, name: str, cap: int = CONTENT_CAP) -> Entry | None:
    """What `name` in the folder `parent_fd` is; None when it does not exist. Reads at most
    `cap` bytes of a file; a larger one is known by size, inode and time only."""
    try:
        st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    kind = _kind(st)
    if kind == "dir":
        return Entry("dir", ident=(st.st_dev, st.st_ino))
    if kind == "link":
        return Entry("link", os.readlink(name, dir_fd=parent_fd).encode(errors="surrogateescape"))
    if kind == "other":
        return Entry("other", mode=stat.S_IMODE(st.st_mode))
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=parent_fd)
    try:
        st = os.fstat(fd)
        mode, shared = stat.S_IMODE(st.st_mode), st.st_nlink > 1
        if not stat.S_ISREG(st.st_mode):
            return Entry("other", mode=mode)
        if st.st_size <= cap:
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(cap + 1)
            if len(data) <= cap:
                return Entry("file", data, mode, shared=shared)
        stamp = f"{st.st_size}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}".encode()
        return Entry("file", stamp, mode, digest=True, shared=shared)
    finally:
        os.close(fd)


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
                with _opened(self.root_fd, rel) as fd:
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
            entry = self.snap.entries.get(_join(g, "config"))
            if entry is None or entry.kind != "file" or entry.digest:
                continue
            low = entry.data.lower()
            if not any(k in low for k in (b"hookspath", b"include", b"fsmonitor", b"attributesfile")):
                continue
            worktree = g.rpartition("/")[0] if kind == "dotgit" else g
            for key, value in config_pairs(entry.data) or []:
                shape = _shape(key)
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
            with _opened(self.root_fd, parent) as fd:
                entry = _read_entry(fd, name)
                if entry is None:
                    return
                self.snap.entries[rel] = entry
                if entry.kind == "dir":
                    with _opened(fd, name) as sub:
                        for child, kind in _names(sub).items():
                            if kind != "dir":
                                self.snap.entries[_join(rel, child)] = _read_entry(sub, child) or Entry(
                                    "other"
                                )
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                self._error(rel, exc)

    def _error(self, rel: str, exc: OSError) -> None:
        self.snap.errors.append(f"{rel or '.'}: {exc.strerror or exc}")
        self.snap.unread.append(rel)

    def _controls(self) -> None:
        for name in CONTAINERS:
            with contextlib.suppress(OSError):
                entry = _read_entry(self.root_fd, name)
                if entry is not None:
                    self.snap.entries[name] = entry
        for rel in CONTROL_ROOTS:
            parent, _, name = rel.rpartition("/")
            try:
                with _opened(self.root_fd, parent) as fd:
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
                names = _names(fd)
                if _looks_like_git_dir(fd, names):
                    self._git_dir(fd, rel, "bare", names)
                    skip = {*GIT_SETTINGS, "objects"}
                    dirs = [d for d in dirs if d not in skip]
        except OSError as exc:
            self._error(rel, exc)
            return
        if dotgit is not None:
            self._dotgit(fd, _join(rel, ".git"), dotgit)
        for name in dirs:
            child = _join(rel, name)
            if deep or child.count("/") >= FD_DEPTH:
                self.deep.append(child)
                continue
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
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
            fd = os.open(".git", _DIR_FLAGS, dir_fd=parent_fd)
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
            names = _names(fd) if names is None else names
        except OSError as exc:
            self._error(rel, exc)
            return
        for name, what in names.items():
            child = _join(rel, name)
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
            with _opened(parent_fd, "info") as fd:
                for name in _names(fd):
                    if not any(fnmatch.fnmatchcase(name, pat) for pat in INFO_WRITABLE):
                        self._tree(fd, name, _join(rel, name))
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
                with _opened(pfd, leaf) if pfd != -1 else _opened(self.root_fd, cur) as fd:
                    for child, kind in _names(fd).items():
                        if kind == "link":
                            self._tree(fd, child, _join(cur, child))
                        elif kind == "dir" and nested:
                            todo.append((_join(cur, child), "", -1))
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(cur, exc)

    def _alternates(self, fd: int, rel: str, kind: str) -> None:
        if kind != "dir":
            self._tree(fd, "objects", rel)
            return
        try:
            with _opened(fd, "objects") as objects:
                info = _read_entry(objects, "info")
                if info is None:
                    return
                if info.kind != "dir":
                    self.snap.entries[rel + "/info"] = info
                    return
                with _opened(objects, "info") as info_fd:
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
            entry = _read_entry(parent_fd, name)
            if entry is None:
                return
            self.snap.entries[rel] = entry
            if entry.kind != "dir":
                return
            with _opened(parent_fd, name) as fd:
                names = _names(fd)
                if _looks_like_git_dir(fd, names):
                    self._git_dir(fd, rel, "module", names)
                    return
                for child, kind in names.items():
                    if kind == "dir":
                        self._modules(fd, _join(rel, child))
                    else:
                        self._tree(fd, child, _join(rel, child))
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
            start = contextlib.nullcontext(parent_fd) if cur == rel else _opened(self.root_fd, parent)
            try:
                with start as pfd:
                    entry = _read_entry(pfd, name if cur == rel else leaf, min(CONTENT_CAP, self.budget))
                    if entry is None:
                        continue
                    if entry.kind == "file" and not entry.digest:
                        self.budget -= len(entry.data)
                    self.snap.entries[cur] = entry
                    if entry.kind == "dir":
                        with _opened(pfd, name if cur == rel else leaf) as fd:
                            todo += [_join(cur, child) for child in _names(fd)]
            except OSError as exc:
                if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                    self._error(cur, exc)


@contextlib.contextmanager
def _opened(dir_fd: int, rel: str) -> Iterator[int]:
    """The folder `rel` under `dir_fd`, each step opened without following a symlink."""
    fd = os.dup(dir_fd)
    try:
        for part in [p for p in rel.split("/") if p]:
            nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


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
            with _opened(self.root, parent) as fd:
                now = _read_entry(fd, name, 0 if want.digest else CONTENT_CAP)
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
                    _remove_tree(fd, name)
                _write(fd, name, want)
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
            with _opened(self.root, src_parent) as src_fd:
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
                child = _join(rel, d)
                st = os.stat(d, dir_fd=fd, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == ident and child != skip:
                    return child
                with contextlib.suppress(OSError), _opened(fd, d) as sub:
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
            with _opened(self.root, parent) as fd:
                now = _read_entry(fd, name)
                if now is None:
                    return True  # already gone (with a folder put back or removed)
                sub = rel[len(home) :].lstrip("/") if home is not None else rel
                if fresh and _keep_in_new_repo(sub, now):
                    if sub == "config" and _sanitize_config(fd, name):
                        self._done(rel, " (unsafe settings removed)")
                    return False
                if rel in after.git_dirs and rel not in self.before.git_dirs and now.kind == "dir":
                    return False  # a new repository: its parts are made safe one by one
                if rel in CONTAINERS and now.kind == "dir":
                    return False
                _remove_tree(fd, name)
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


def _remove_tree(parent_fd: int, name: str) -> None:
    """Remove `name` (a folder with everything in it, or anything else) without following
    symlinks and without recursion, so any depth works."""
    try:
        st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(name, dir_fd=parent_fd)
        return
    stack = [name]
    while stack:
        rel = stack[-1]
        with _opened(parent_fd, rel) as fd:
            names = _names(fd)
            for child, kind in names.items():
                if kind != "dir":
                    os.unlink(child, dir_fd=fd)
        subdirs = [f"{rel}/{c}" for c, kind in names.items() if kind == "dir"]
        if subdirs:
            stack += subdirs
            continue
        parent, _, leaf = rel.rpartition("/")
        with _opened(parent_fd, parent) as pfd:
            os.rmdir(leaf, dir_fd=pfd)
        stack.pop()


def _write(parent_fd: int, name: str, want: Entry) -> None:
    """Put a file or symlink in place atomically: a new name renamed over the old."""
    tmp = f".hearth-guard-{secrets.token_hex(6)}"
    if want.kind == "link":
        os.symlink(want.data.decode(errors="surrogateescape"), tmp, dir_fd=parent_fd)
    else:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o600, dir_fd=parent_fd)
        try:
            view = memoryview(want.data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, want.mode or 0o644)
        finally:
            os.close(fd)
    try:
        os.rename(tmp, name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=parent_fd)
        raise


def _shape(key: str) -> str:
    """`remote.origin.url` -> `remote.*.url`; `core.hookspath` stays."""
    section, _, rest = key.partition(".")
    sub, _, name = rest.rpartition(".")
    return f"{section}.*.{name}" if sub else f"{section}.{name}"


def _allowed_key(key: str) -> bool:
    return _shape(key) in SAFE_CONFIG_KEYS


def config_pairs(data: bytes) -> list[tuple[str, str | None]] | None:
    """(key, value) pairs as git itself reads `data` (includes not followed); None if not valid."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {"GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/nonexistent", "GIT_DIR": "/nonexistent"}
    try:
        proc = subprocess.run(
            ["git", "config", "--file", "-", "--no-includes", "--list", "-z"],
            input=data,
            capture_output=True,
            env=env,
            cwd="/",
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    pairs: list[tuple[str, str | None]] = []
    for record in proc.stdout.split(b"\0")[:-1]:
        key, nl, value = record.decode(errors="replace").partition("\n")
        pairs.append((key, value if nl else None))
    return pairs


def safe_config(pairs: list[tuple[str, str | None]]) -> str:
    """A config file with only the allowed keys of `pairs`, every value quoted."""
    sections: dict[tuple[str, str | None], list[str]] = {}
    for key, value in pairs:
        section, _, rest = key.partition(".")
        sub, _, name = rest.rpartition(".")
        if not _allowed_key(key) or any(c in (sub + (value or "")) for c in "\0\n\r"):
            continue
        if value is not None and any(ord(c) < 0x20 and c != "\t" for c in value):
            continue
        line = f"\t{name}" if value is None else f"\t{name} = {_quote(value)}"
        sections.setdefault((section, sub or None), []).append(line)
    out = []
    for (section, subsection), lines in sections.items():
        out.append(f"[{section}]" if subsection is None else f"[{section} {_quote(subsection)}]")
        out.extend(lines)
    return "\n".join(out) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def _sanitize_config(parent_fd: int, name: str) -> bool:
    """Rewrite a new repository's config with only safe keys; True when something was removed."""
    entry = _read_entry(parent_fd, name)
    if entry is None or entry.kind != "file":
        return False
    pairs = None if entry.digest else config_pairs(entry.data)
    if pairs is not None and all(_allowed_key(k) for k, _ in pairs):
        return False
    text = safe_config(pairs or [("core.repositoryformatversion", "0")])
    _write(parent_fd, name, Entry("file", text.encode(), 0o644))
    return True


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


def open_path(root_fd: int, rel: str) -> int:
    """An O_PATH descriptor for `rel` under `root_fd`, no step through a symlink (for bind mounts)."""
    parent, _, name = rel.rpartition("/")
    with _opened(root_fd, parent) as fd:
        return os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)


REDIRECTS = ("commondir", "config.worktree", "worktrees", "modules", "info/attributes", *ALTERNATES)


def settle_repository(workspace: Path, rel: str, config: bytes, exclude: bytes) -> list[str]:
    """Make the git dir `rel` (Hearth's own) hold exactly `config` and `exclude` and nothing that
    sends git elsewhere (commondir, alternates, ...). Returns what it fixed. Raises OSError when
    a step of `rel` is a symlink or not a folder: such a repository must not be used."""
    fixed = []
    root = _open_root(workspace)
    try:
        with _opened(root, rel) as fd:
            for name, want in (("config", config), ("info/exclude", exclude)):
                parent, _, leaf = name.rpartition("/")
                if parent and _read_entry(fd, parent) is None:
                    os.mkdir(parent, 0o755, dir_fd=fd)
                with _opened(fd, parent) as pfd:
                    if _read_entry(pfd, leaf) != Entry("file", want, 0o644):
                        now = _read_entry(pfd, leaf)
                        if now is not None and now.kind == "dir":
                            _remove_tree(pfd, leaf)
                        _write(pfd, leaf, Entry("file", want, 0o644))
                        fixed.append(name)
            for name in REDIRECTS:
                parent, _, leaf = name.rpartition("/")
                try:
                    with _opened(fd, parent) as pfd:
                        if _read_entry(pfd, leaf) is not None:
                            _remove_tree(pfd, leaf)
                            fixed.append(name)
                except (FileNotFoundError, NotADirectoryError):
                    continue
    finally:
        os.close(root)
    return fixed
