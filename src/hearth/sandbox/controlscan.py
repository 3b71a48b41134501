"""What the guard records: control files, and every git directory's unchangeable parts.

One walk over the workspace on folder descriptors (no symlink followed, no recursion limit),
finding each `.git`, each folder git would take for a bare repository, and each submodule's
repository, and recording what in them a command may not change (see guard.py).
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import os
from dataclasses import dataclass, field

from hearth.sandbox.catalogue import CONTAINERS, PATTERNS
from hearth.sandbox.dirfd import CONTENT_CAP, DIR_FLAGS, Chain, Entry, join, list_dir, opened, read_entry
from hearth.sandbox.gitconfig import TRUSTED_KEYS, config_pairs, key_shape

CONTROL_PATTERNS = PATTERNS  # the catalogue (catalogue.py): files that make programs run code
# Workspace-level control entries (their whole subtree) and the folders that hold them.
CONTROL_ROOTS = tuple(p for p in CONTROL_PATTERNS if not p.startswith(("*", ".git/")))

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


def _writable(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pat) for pat in WRITABLE)


def _looks_like_git_dir(fd: int, names: dict[str, str]) -> bool:
    """What git's own test accepts: a HEAD, and objects and refs here or through `commondir`."""
    if names.get("HEAD") not in ("file", "link"):
        return False
    return (names.get("objects") == "dir" and names.get("refs") == "dir") or "commondir" in names


class Scan:
    """One pass over the workspace: control files, every git dir and its unchangeable parts."""

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
        chain = Chain(self.root_fd)  # folders nested past FD_DEPTH: one at a time, depth first
        try:
            while self.deep:
                rel = self.deep.pop()
                try:
                    self._walk(chain.open(rel), rel, deep=True)
                except OSError as exc:
                    if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                        self._error(rel, exc)
        finally:
            chain.close()
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
        chain = Chain(self.root_fd)  # depth first: each folder is opened once, from its parent
        try:
            while todo:
                cur = todo.pop()
                try:
                    self._tree_entry(chain, parent_fd, name, rel, cur, todo)
                except OSError as exc:
                    if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                        self._error(cur, exc)
        finally:
            chain.close()

    def _tree_entry(
        self, chain: Chain, parent_fd: int, name: str, rel: str, cur: str, todo: list[str]
    ) -> None:
        """Record `cur`, one entry of `_tree`; a folder's entries go on `todo`."""
        pfd, leaf = (
            (parent_fd, name) if cur == rel else (chain.open(cur.rpartition("/")[0]), cur.rpartition("/")[2])
        )
        entry = read_entry(pfd, leaf, min(CONTENT_CAP, self.budget))
        if entry is None:
            return
        if entry.kind == "file" and not entry.digest:
            self.budget -= len(entry.data)
        self.snap.entries[cur] = entry
        if entry.kind == "dir":
            with opened(pfd, leaf) as fd:
                todo += [join(cur, child) for child in list_dir(fd)]
