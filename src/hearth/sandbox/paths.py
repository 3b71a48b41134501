"""Resolve a path the model gave to a real path inside the workspace, or refuse.

Refuses `..` and absolute ways out, symlinks that point outside, same-prefix
siblings (`/w/proj_evil` is not inside `/w/proj`), NUL bytes, secrets
(`.env*`, keys, credential folders), and writes to Hearth's own state and
git's control files.
"""

from __future__ import annotations

import contextlib
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

SECRET_NAMES = (
    ".env",
    ".env.*",
    ".netrc",
    ".git-credentials",
    ".pypirc",
    ".npmrc",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
)
SECRET_DIRS = (".ssh", ".aws", ".gnupg", ".docker", ".kube")
SHAREABLE = (".env.example", ".env.sample", ".env.template", ".env.dist")
PROTECTED_WRITE_DIRS = (".hearth", ".git")


class PathDenied(ToolError):
    pass


def resolve_in_workspace(
    workspace: Path, path: str, *, write: bool = False, allow_secrets: bool = False
) -> Path:
    """The real path of `path` (relative to the workspace, or absolute inside it)."""
    return SafePaths(workspace, allow_secrets=allow_secrets).resolve(path, write=write)


_SECRET_NAME = re.compile("|".join(fnmatch.translate(p) for p in SECRET_NAMES))


def is_secret(rel: Path | PurePosixPath | str) -> bool:
    parts = rel.split(os.sep) if isinstance(rel, str) else rel.parts
    if not parts or parts == [""]:
        return False
    if any(p in SECRET_DIRS for p in parts):
        return True
    name = parts[-1]
    return name not in SHAREABLE and _SECRET_NAME.match(name) is not None


_SYS_OPENAT2 = 437
_RESOLVE_NO_MAGICLINKS, _RESOLVE_BENEATH = 0x02, 0x08
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
_openat2_works: bool | None = None


def open_beneath(root_fd: int, rel: str, flags: int, mode: int = 0o644) -> int:
    """Open `rel` under the directory `root_fd`, never leaving it, whatever is swapped in meanwhile.

    Linux: openat2 with RESOLVE_BENEATH (no `..`, absolute or symlinked way out, checked by the
    kernel during the open). Elsewhere, or on kernels without openat2: a walk that opens each
    folder with O_NOFOLLOW, so no symlink is followed at all.
    """
    global _openat2_works
    flags |= os.O_CLOEXEC
    if _libc is not None and _openat2_works is not False:
        how = ctypes.create_string_buffer(
            struct.pack(
                "QQQ", flags, mode if flags & os.O_CREAT else 0, _RESOLVE_BENEATH | _RESOLVE_NO_MAGICLINKS
            ),
            24,
        )
        fd = _libc.syscall(_SYS_OPENAT2, root_fd, rel.encode(), how, ctypes.c_size_t(24))
        if fd >= 0:
            _openat2_works = True
            return int(fd)
        err = ctypes.get_errno()
        if err != errno.ENOSYS:
            if err == errno.EXDEV:
                raise PathDenied(f"{rel!r} leads outside the workspace (through a symlink); not opened.")
            raise OSError(err, os.strerror(err), rel)
        _openat2_works = False
    return _open_walk(root_fd, rel, flags, mode)


def _open_walk(root_fd: int, rel: str, flags: int, mode: int) -> int:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if any(p == ".." for p in parts) or rel.startswith("/"):
        raise PathDenied(f"{rel!r} leads outside the workspace; not opened.")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nxt
        if not parts:
            return os.dup(fd)
        return os.open(parts[-1], flags | os.O_NOFOLLOW, mode, dir_fd=fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathDenied(f"{rel!r} goes through a symlink; not opened.") from None
        raise
    finally:
        os.close(fd)


class SafePaths:
    """`WorkspacePaths` for one workspace folder. Works on strings: it is on every file call."""

    def __init__(
        self, root: Path, *, allow_secrets: bool = False, secret_exceptions: tuple[str, ...] = ()
    ) -> None:
        """`secret_exceptions`: glob patterns of secrets the user's allow rules let through."""
        self._root_str = os.path.realpath(root)
        self._root = Path(self._root_str)
        self._prefix = self._root_str.rstrip(os.sep) + os.sep
        self._allow_secrets = allow_secrets
        self._exceptions = tuple(re.compile(fnmatch.translate(p)) for p in secret_exceptions)
        self._root_fd: int | None = None

    @property
    def root(self) -> Path:
        return self._root

    def _rel(self, real: str) -> str | None:
        """`real` relative to the root ("" for the root itself); None when outside."""
        if real == self._root_str:
            return ""
        return real[len(self._prefix) :] if real.startswith(self._prefix) else None

    def resolve(self, path: str, *, write: bool = False) -> Path:
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
        if not self._allow_secrets and is_secret(rel) and not any(x.match(rel) for x in self._exceptions):
            raise PathDenied(
                f"{raw!r} looks like a secret (credentials or keys); Hearth does not read or write it."
            )
        if write and rel:
            top = rel.split(os.sep, 1)[0]
            if top in PROTECTED_WRITE_DIRS:
                raise PathDenied(f"{raw!r} is inside {top}/, which the agent may not change.")
        return Path(real)

    def _real(self, joined: str) -> str:
        """realpath, but with lstat only below the (already real) root when nothing is a symlink."""
        if ".." in joined.split(os.sep):
            return os.path.realpath(joined)
        norm = os.path.normpath(joined)
        rel = self._rel(norm)
        if rel is None:
            return os.path.realpath(joined)
        current = self._root_str
        for part in rel.split(os.sep) if rel else ():
            current = current + os.sep + part
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    return os.path.realpath(joined)
            except FileNotFoundError:
                return norm  # nothing below a missing folder can be a symlink
        return norm

    def contains(self, path: Path) -> bool:
        return self._rel(os.path.realpath(path)) is not None

    def is_secret(self, path: Path) -> bool:
        rel = self._rel(os.path.realpath(path))
        return rel is not None and is_secret(rel)

    def display(self, path: Path) -> str:
        rel = self._rel(str(path))
        return str(path) if rel is None else (rel or ".")

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """A file descriptor for `path` (from `resolve`), opened race-free beneath the workspace."""
        rel = self._rel(str(path))
        if not rel:
            raise PathDenied(f"{path} is not a file inside the workspace.")
        if self._root_fd is None:
            self._root_fd = os.open(self._root_str, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        return open_beneath(self._root_fd, rel, flags, mode)

    def __del__(self) -> None:
        if self._root_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._root_fd)
