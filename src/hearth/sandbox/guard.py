"""The agent's control files: what a command may not create or change without the user.

Git's own settings, Hearth's config, MCP configs, editor task files: a command
that writes one of these could run code on the host later (through the user's
`git status` or `git commit`, the next Hearth start, or the editor).

Git is governed as a class: every git directory in the workspace, at any depth
(each `.git` folder, each `.git/modules/*` repository, each folder git would
take for a bare repository), may change only in its data (objects, refs, logs,
index, HEAD and the other state files in controlscan.WRITABLE); everything else in it
(config, hooks, info, commondir, worktrees, alternates, ...) is unchangeable,
and a `.git` file or symlink may not appear or change. A git directory the
command created (`git init`) is made safe instead of removed: its config keeps
only the keys in gitconfig.SAFE_CONFIG_KEYS, its hooks only the `*.sample` files.

The guard works on directory file descriptors only: it never follows a
symlink, never reads or writes outside the workspace, and reports what it
could not do instead of raising. bwrap also mounts the unchangeable parts
read-only (`mounts`); under Landlock and the process runner this guard is the
protection, applied when each command ends and, while a process that outlives its call lives
(a background job, the `python` interpreter, an MCP server), against the state before the
first of them started (runner.py).
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from hearth.sandbox.controlscan import (
    ALTERNATES,
    CONTAINERS,
    CONTROL_PATTERNS,
    CONTROL_ROOTS,
    FD_DEPTH,
    Scan,
    Snapshot,
)
from hearth.sandbox.dirfd import (
    CONTENT_CAP,
    Entry,
    join,
    open_path,
    opened,
    read_entry,
    remove_tree,
    write,
)
from hearth.sandbox.gitconfig import sanitize_config

__all__ = [
    "CONTENT_CAP",
    "CONTROL_PATTERNS",
    "Report",
    "Snapshot",
    "adopt",
    "mounts",
    "open_path",
    "restore",
    "settle_repository",
    "snapshot",
]


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


def control_paths(workspace: Path) -> list[Path]:
    """Existing control entries (CONTROL_PATTERNS), for read-only checks such as the file tools'
    hardlink test; `glob` does not follow a symlinked entry's subtree there."""
    found: list[Path] = []
    for pattern in CONTROL_PATTERNS:
        found.extend(workspace.glob(pattern))
    return found


def is_control_path(rel: str) -> bool:
    """True when `rel` (relative to the workspace) is a control file or inside one."""
    parts = PurePosixPath(rel).parts
    if ".git" in parts:
        return True
    prefixes = ("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return any(fnmatch.fnmatchcase(p, pat) for p in prefixes for pat in CONTROL_PATTERNS)


def _open_root(workspace: Path) -> int:
    return os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def snapshot(workspace: Path) -> Snapshot:
    """The control files of the workspace as they are now. Never raises."""
    try:
        root = _open_root(workspace)
    except OSError as exc:
        return Snapshot(errors=[f"{workspace}: {exc.strerror}"], unread=[""])
    try:
        return Scan(root).run()
    except Exception as exc:  # reported with the command's result, never a crash of the loop
        return Snapshot(errors=[f"{workspace}: {exc}"], unread=[""])
    finally:
        os.close(root)


def adopt(workspace: Path, baseline: Snapshot, rel: str) -> Snapshot:
    """`baseline` with `rel` (and what is under it, and its new parent folders) as it is now: a
    change the user approved (a host-side write of a control file) that the guard then keeps."""
    now = snapshot(workspace)
    parts = rel.split("/")
    parents = {"/".join(parts[:i]) for i in range(1, len(parts))}

    def mine(path: str) -> bool:
        return path == rel or path.startswith(rel + "/")

    entries = {k: v for k, v in baseline.entries.items() if not mine(k)}
    entries.update({k: v for k, v in now.entries.items() if mine(k) or (k in parents and k not in entries)})
    git_dirs = {k: v for k, v in baseline.git_dirs.items() if not mine(k)}
    git_dirs.update({k: v for k, v in now.git_dirs.items() if mine(k)})
    config = rel.rpartition("/")[2] in ("config", ".git")
    trusted = sorted({*baseline.trusted, *now.trusted}) if config else baseline.trusted
    return Snapshot(entries, git_dirs, list(baseline.errors), list(baseline.unread), trusted)


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
        after = Scan(self.root, self.before.trusted).run()
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
