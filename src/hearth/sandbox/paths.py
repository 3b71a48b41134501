"""Resolve a path the model gave to a real path inside the workspace, or refuse.

Refuses `..` and absolute ways out, symlinks that point outside, same-prefix
siblings (`/w/proj_evil` is not inside `/w/proj`), NUL bytes, secrets
(`.env*`, keys, credential folders), and writes to Hearth's own state and
git's control files.
"""

from __future__ import annotations

import ctypes
import errno
import fnmatch
import os
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
    if "\x00" in path:
        raise PathDenied("Path contains a NUL byte.")
    raw = path.strip() or "."
    if raw.startswith("~"):
        raise PathDenied(f"{raw!r}: paths are relative to the workspace; `~` (home) is outside it.")
    root = Path(os.path.realpath(workspace))
    candidate = Path(raw) if os.path.isabs(raw) else root / raw
    resolved = Path(os.path.realpath(candidate))
    if not is_within(root, resolved):
        raise PathDenied(
            f"{raw!r} is outside the workspace ({root}). Use a path inside it, e.g. 'notes/todo.md'."
        )
    rel = resolved.relative_to(root)
    if not allow_secrets and is_secret(rel):
        raise PathDenied(
            f"{raw!r} looks like a secret (credentials or keys); Hearth does not read or write it."
        )
    if write and rel.parts and rel.parts[0] in PROTECTED_WRITE_DIRS:
        raise PathDenied(f"{raw!r} is inside {rel.parts[0]}/, which the agent may not change.")
    return resolved


def is_within(root: Path, target: Path) -> bool:
    try:
        return os.path.commonpath([str(root), str(target)]) == str(root)
    except ValueError:  # different drives on Windows
        return False


def is_secret(rel: Path | PurePosixPath) -> bool:
    parts = rel.parts
    if any(p in SECRET_DIRS for p in parts[:-1]) or (parts and parts[-1] in SECRET_DIRS):
        return True
    if not parts:
        return False
    name = parts[-1]
    if name in SHAREABLE:
        return False
    return any(fnmatch.fnmatchcase(name, pat) for pat in SECRET_NAMES)


def display_path(workspace: Path, path: Path) -> str:
    root = Path(os.path.realpath(workspace))
    try:
        rel = path.relative_to(root)
    except ValueError:
        return str(path)
    return str(rel) if str(rel) != "." else "."


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
    """`WorkspacePaths` for one workspace folder."""

    def __init__(self, root: Path, *, allow_secrets: bool = False) -> None:
        self._root = Path(os.path.realpath(root))
        self._allow_secrets = allow_secrets

    @property
    def root(self) -> Path:
        return self._root

    def resolve(self, path: str, *, write: bool = False) -> Path:
        return resolve_in_workspace(self._root, path, write=write, allow_secrets=self._allow_secrets)

    def contains(self, path: Path) -> bool:
        return is_within(self._root, Path(os.path.realpath(path)))

    def is_secret(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return is_within(self._root, real) and is_secret(real.relative_to(self._root))

    def display(self, path: Path) -> str:
        return display_path(self._root, path)

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """A file descriptor for `path` (from `resolve`), opened race-free beneath the workspace."""
        rel = os.path.relpath(path, self._root)
        if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
            raise PathDenied(f"{path} is outside the workspace.")
        root_fd = os.open(self._root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            return open_beneath(root_fd, rel, flags, mode)
        finally:
            os.close(root_fd)
