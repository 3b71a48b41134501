"""Resolve a path the model gave to a real path inside the workspace, or refuse; then act on it
through file descriptors opened beneath the workspace.

Refuses `..` and absolute ways out, symlinks that point outside, same-prefix
siblings (`/w/proj_evil` is not inside `/w/proj`), NUL bytes, secrets
(secrets.py: by name, by symlink target, and hardlinks to them), and writes to
Hearth's own state and git's control files. `SafePaths.canonical` is the one
canonicalization: the permission policy decides on it and the tools open it.
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import errno
import fnmatch
import os
import re
import stat
import struct
import sys
from pathlib import Path, PurePosixPath

from hearth.core.errors import ToolError
from hearth.sandbox.guard import control_paths
from hearth.sandbox.secrets import is_secret_path, secret_index

PROTECTED_WRITE_DIRS = (".hearth", ".git")
O_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class PathDenied(ToolError):
    pass


def resolve_in_workspace(
    workspace: Path, path: str, *, write: bool = False, allow_secrets: bool = False
) -> Path:
    """The real path of `path` (relative to the workspace, or absolute inside it)."""
    return SafePaths(workspace, allow_secrets=allow_secrets).resolve(path, write=write)


def is_secret(rel: Path | PurePosixPath | str) -> bool:
    """By name: `rel` (canonical, relative to the workspace) is or lies in a secret (see secrets.py)."""
    return is_secret_path(str(rel))


_SYS_OPENAT2 = 437
_RESOLVE_NO_MAGICLINKS, _RESOLVE_NO_SYMLINKS, _RESOLVE_BENEATH = 0x02, 0x04, 0x08
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
_openat2_works: bool | None = None


def open_beneath(root_fd: int, rel: str, flags: int, mode: int = 0o644) -> int:
    """Open `rel` under the directory `root_fd` without following any symlink, whatever is swapped in.

    `rel` is a canonical path (from `SafePaths.resolve`): it had no symlink in it when it was
    checked, so one found now was planted since, and the open fails instead of following it.
    Linux: openat2 with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS, checked by the kernel during the
    open. Elsewhere, or on kernels without openat2: a walk that opens each folder with O_NOFOLLOW.
    """
    global _openat2_works
    flags |= os.O_CLOEXEC
    if _libc is not None and _openat2_works is not False:
        resolve = _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS
        how = ctypes.create_string_buffer(
            struct.pack("QQQ", flags, mode if flags & os.O_CREAT else 0, resolve), 24
        )
        fd = _libc.syscall(_SYS_OPENAT2, root_fd, (rel or ".").encode(), how, ctypes.c_size_t(24))
        if fd >= 0:
            _openat2_works = True
            return int(fd)
        err = ctypes.get_errno()
        if err != errno.ENOSYS:
            if err == errno.EXDEV:
                raise PathDenied(f"{rel!r} leads outside the workspace; not opened.")
            if err == errno.ELOOP:
                raise _swapped(rel)
            raise OSError(err, os.strerror(err), rel)
        _openat2_works = False
    return _open_walk(root_fd, rel, flags, mode)


def _swapped(rel: str) -> PathDenied:
    return PathDenied(f"{rel!r} goes through a symlink that appeared after the path was checked; not opened.")


def _open_walk(root_fd: int, rel: str, flags: int, mode: int) -> int:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if any(p == ".." for p in parts) or rel.startswith("/"):
        raise PathDenied(f"{rel!r} leads outside the workspace; not opened.")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, O_DIR, dir_fd=fd)
            os.close(fd)
            fd = nxt
        if not parts:
            return os.dup(fd)
        return os.open(parts[-1], flags | os.O_NOFOLLOW, mode, dir_fd=fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _swapped(rel) from None
        raise
    finally:
        os.close(fd)


class SafePaths:
    """`WorkspacePaths` for one workspace folder. Works on strings: it is on every file call.

    `canonical` is the one place a path the model wrote becomes the path that is opened: the
    permission policy decides on its answer, and the tools open that same path (no symlink
    followed at open time), so the two cannot disagree.
    """

    def __init__(
        self, root: Path, *, allow_secrets: bool = False, secret_exceptions: tuple[str, ...] = ()
    ) -> None:
        """`secret_exceptions`: glob patterns of secrets the user's allow rules let through."""
        self._root_str = os.path.realpath(root)
        self._root = Path(self._root_str)
        self._prefix = self._root_str.rstrip(os.sep) + os.sep
        self._allow_secrets = allow_secrets
        self._exceptions = tuple(
            re.compile(fnmatch.translate(p.removeprefix("./"))) for p in secret_exceptions
        )
        self._root_fd = _RootFd(self._root_str)
        self._secrets = secret_index(self._root_str)
        self._pinned = False

    @property
    def root(self) -> Path:
        return self._root

    def _rel(self, real: str) -> str | None:
        """`real` relative to the root ("" for the root itself); None when outside."""
        if real == self._root_str:
            return ""
        return real[len(self._prefix) :] if real.startswith(self._prefix) else None

    def _locate(self, path: str) -> tuple[str, str]:
        """(what the model wrote, the canonical path relative to the root) or PathDenied."""
        if "\x00" in path:
            raise PathDenied("Path contains a NUL byte.")
        raw = path.strip() or "."
        if raw.startswith("~"):
            raise PathDenied(f"{raw!r}: paths are relative to the workspace; `~` (home) is outside it.")
        real = self._real(raw if os.path.isabs(raw) else os.path.join(self._root_str, raw))
        rel = self._rel(real)
        if rel is None:
            raise PathDenied(
                f"{raw!r} is outside the workspace ({self._root_str}). Use a path inside it, e.g. 'notes/todo.md'."
            )
        return raw, rel

    def canonical(self, path: str) -> str:
        """The workspace-relative path a tool opens for `path` ("." for the workspace itself).

        `x/../`, `./`, `//`, an absolute path inside the workspace and symlinks inside it all come
        out as the one real path; a path outside it, or with a NUL byte, raises PathDenied.
        """
        return self._locate(path)[1] or "."

    def _excepted(self, rel: str) -> bool:
        return self._allow_secrets or any(x.match(rel) for x in self._exceptions)

    def resolve(self, path: str, *, write: bool = False) -> Path:
        raw, rel = self._locate(path)
        if is_secret_path(rel) and not self._excepted(rel):
            raise PathDenied(
                f"{raw!r} looks like a secret (credentials or keys); Hearth does not read or write it."
            )
        if write and rel:
            top = rel.split(os.sep, 1)[0]
            if top in PROTECTED_WRITE_DIRS:
                raise PathDenied(f"{raw!r} is inside {top}/, which the agent may not change.")
        return Path(self._prefix + rel) if rel else self._root

    def _real(self, joined: str) -> str:
        """realpath, but with lstat only below the (already real) root when nothing is a symlink."""
        if ".." in joined.split(os.sep):
            return self._follow(joined)
        norm = os.path.normpath(joined)
        rel = self._rel(norm)
        if rel is None:
            return os.path.realpath(joined)
        current = self._root_str
        for part in rel.split(os.sep) if rel else ():
            current = current + os.sep + part
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    return self._follow(joined)
            except FileNotFoundError:
                return norm  # nothing below a missing folder can be a symlink
            except NotADirectoryError:
                return norm  # a file used as a folder: opening it will say so
        return norm

    def _follow(self, joined: str) -> str:
        if self._pinned:
            raise _swapped(self.display(Path(os.path.normpath(joined))))
        try:
            return os.path.realpath(joined)
        except OSError:  # a link replaced while it was being read
            raise PathDenied(
                f"{self.display(Path(joined))!r} changed while it was being resolved; try again."
            ) from None

    def contains(self, path: Path) -> bool:
        return self._rel(os.path.realpath(path)) is not None

    def is_secret(self, path: Path) -> bool:
        """Would Hearth refuse to show `path`: outside, named like a secret, or a hardlink to one."""
        rel = self._rel(os.path.realpath(path))
        if rel is None:
            return True
        if is_secret_path(rel):
            return not self._excepted(rel)
        try:
            st = os.stat(self._prefix + rel, follow_symlinks=False)
        except OSError:
            return False
        return self._hardlinked_secret(rel, st) is not None

    def _hardlinked_secret(self, rel: str, st: os.stat_result) -> str | None:
        """The secret file `rel` shares its inode with (a hardlink to it), if any and not allowed."""
        if self._allow_secrets or not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
            return None
        owner = self._secrets.scan().inodes.get((st.st_dev, st.st_ino))
        if owner is None or owner == rel or self._excepted(owner):
            return None
        return owner

    def _hardlinked_control(self, rel: str, st: os.stat_result) -> str | None:
        """The control file (guard.py) `rel` shares its inode with, if any."""
        if not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
            return None
        for top in control_paths(self._root):
            inside = top.rglob("*") if top.is_dir() and not top.is_symlink() else ()
            for item in (top, *inside):
                try:
                    ist = os.stat(item, follow_symlinks=False)
                except OSError:
                    continue
                if (ist.st_dev, ist.st_ino) == (st.st_dev, st.st_ino) and self.display(item) != rel:
                    return self.display(item)
        return None

    def display(self, path: Path) -> str:
        rel = self._rel(str(path))
        return str(path) if rel is None else (rel or ".")

    def _fd(self) -> int:
        return self._root_fd.get()

    def pinned(self) -> SafePaths:
        """This resolver for paths that are already canonical (the dispatcher passes those to the
        tools): a path that has come to hold a symlink since is refused instead of followed, so
        the tool opens the very path the permission decision was made on."""
        view = copy.copy(self)
        view._pinned = True
        return view

    def _inside(self, path: Path) -> str:
        rel = self._rel(str(path))
        if rel is None:
            raise PathDenied(f"{path} is outside the workspace ({self._root_str}).")
        return rel

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """A file descriptor for `path` (from `resolve`), opened race-free beneath the workspace.

        No symlink is followed. A hardlink to a secret is refused before anything is truncated.
        Folders (the workspace itself included) open with O_DIRECTORY.
        """
        rel = self._inside(path)
        if not rel:
            if not flags & os.O_DIRECTORY:
                raise PathDenied(f"{path} is the workspace folder, not a file.")
            return os.dup(self._fd())
        truncate = bool(flags & os.O_TRUNC)
        fd = open_beneath(self._fd(), rel, flags & ~os.O_TRUNC, mode)
        try:
            st = os.fstat(fd)
            owner = self._hardlinked_secret(rel, st)
            if owner is not None:
                raise PathDenied(f"{rel!r} is a hardlink to the secret {owner!r}; Hearth does not open it.")
            if flags & (os.O_WRONLY | os.O_RDWR) and (control := self._hardlinked_control(rel, st)):
                raise PathDenied(
                    f"{rel!r} is a hardlink to the control file {control!r}; writing it would change that "
                    f"file. Write {control!r} itself, which asks the user."
                )
            if truncate:
                os.ftruncate(fd, 0)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def stat(self, path: Path) -> os.stat_result | None:
        """lstat of `path` through a folder opened beneath the workspace; None when it is missing."""
        rel = self._inside(path)
        if not rel:
            return os.fstat(self._fd())
        parent, name = os.path.split(rel)
        try:
            fd = open_beneath(self._fd(), parent, O_DIR) if parent else os.dup(self._fd())
        except (FileNotFoundError, NotADirectoryError):
            return None
        try:
            return os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        finally:
            os.close(fd)

    def makedirs(self, path: Path) -> bool:
        """Create the folder `path` and its parents, one `mkdirat` at a time beneath the workspace.

        Each folder is opened with O_NOFOLLOW before the next is made in it, so a symlink swapped in
        meanwhile stops the walk instead of leading it outside. True when something was created.
        """
        rel = self._inside(path)
        created = False
        fd = os.dup(self._fd())
        try:
            for part in rel.split(os.sep) if rel else ():
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                    created = True
                except FileExistsError:
                    pass
                try:
                    nxt = os.open(part, O_DIR, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                        raise PathDenied(
                            f"{rel!r}: {part!r} is a file or a symlink, not a folder; nothing created in it."
                        ) from None
                    if exc.errno == errno.ENOENT:
                        raise PathDenied(f"{rel!r}: {part!r} was removed meanwhile; try again.") from None
                    raise
                os.close(fd)
                fd = nxt
        finally:
            os.close(fd)
        return created


class _RootFd:
    """The workspace folder's descriptor: opened once, shared by a SafePaths and its pinned views."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd: int | None = None

    def get(self) -> int:
        if self._fd is None:
            self._fd = os.open(self._path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        return self._fd

    def __del__(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
