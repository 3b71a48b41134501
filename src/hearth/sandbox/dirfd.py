"""File operations on directory descriptors that never follow a symlink.

Every path is walked one step at a time from a folder descriptor with O_NOFOLLOW, so a
symlink swapped in anywhere makes the operation fail instead of leaving the tree it started
in. Used by the control-file guard, which must never read or write outside the workspace.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field

CONTENT_CAP = 16 << 20  # larger files are compared by size and times, and cannot be put back
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Entry:
    kind: str  # "dir", "file", "link", "other"
    data: bytes = b""  # file content (or its sha256 when too large), link target
    mode: int = 0  # permission bits of a file
    digest: bool = False  # data stands for content too large to keep: the file cannot be put back
    shared: bool = False  # a hardlink: writes through another name would change it
    ident: tuple[int, int] = field(default=(0, 0), compare=False)  # (st_dev, st_ino) of a folder


def join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def kind_of(st: os.stat_result) -> str:
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    if stat.S_ISREG(st.st_mode):
        return "file"
    return "link" if stat.S_ISLNK(st.st_mode) else "other"


def list_dir(fd: int) -> dict[str, str]:
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


def read_entry(parent_fd: int, name: str, cap: int = CONTENT_CAP) -> Entry | None:
    """What `name` in the folder `parent_fd` is; None when it does not exist. Reads at most
    `cap` bytes of a file; a larger one is known by size, inode and time only."""
    try:
        st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    kind = kind_of(st)
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


@contextlib.contextmanager
def opened(dir_fd: int, rel: str) -> Iterator[int]:
    """The folder `rel` under `dir_fd`, each step opened without following a symlink."""
    fd = os.dup(dir_fd)
    try:
        for part in [p for p in rel.split("/") if p]:
            nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def made(dir_fd: int, rel: str) -> Iterator[int]:
    """The folder `rel` under `dir_fd`, made where missing; a step that is a symlink (or not a
    folder) raises OSError, so nothing is ever created through one."""
    fd = os.dup(dir_fd)
    try:
        for part in [p for p in rel.split("/") if p]:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o755, dir_fd=fd)
            nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


class Chain:
    """Folders along one path below `root_fd`, opened step by step without following a symlink,
    kept open for the next path: a walk of a deep tree opens each step once, not every step from
    the root again (a 1,200-deep folder took 22 s to remove that way). At most the last two steps
    and every `EVERY`-th are kept, so any depth stays far under the limit of open files; a path
    elsewhere reopens from the nearest kept step. `close()` closes them all."""

    EVERY = 32

    def __init__(self, root_fd: int) -> None:
        self.root = root_fd
        self.parts: list[str] = []
        self.fds: list[int | None] = []  # fds[i]: the folder parts[: i + 1], when kept open

    def open(self, rel: str) -> int:
        """The folder `rel` (`""`: the root); valid until the next call or `close()`."""
        parts = [p for p in rel.split("/") if p]
        common = 0
        for mine, theirs in zip(self.parts, parts, strict=False):
            if mine != theirs:
                break
            common += 1
        self._drop(common)
        base = common - 1
        while base >= 0 and self.fds[base] is None:
            base -= 1
        for step in range(base + 1, len(parts)):
            here = self.fds[step - 1] if step else self.root
            fd = os.open(parts[step], DIR_FLAGS, dir_fd=here)
            if step < len(self.parts):
                self.fds[step] = fd
            else:
                self.parts.append(parts[step])
                self.fds.append(fd)
            self._thin(step - 1, len(parts))
        for step in range(max(0, common - 2), len(parts) - 2):
            self._thin(step, len(parts))
        return self.fds[-1] if parts else self.root  # type: ignore[return-value]

    def _drop(self, keep: int) -> None:
        for fd in self.fds[keep:]:
            if fd is not None:
                os.close(fd)
        del self.fds[keep:], self.parts[keep:]

    def _thin(self, step: int, depth: int) -> None:
        """Close step `step` of a path `depth` long unless it is one to keep."""
        fd = self.fds[step] if step >= 0 else None
        if fd is not None and step < depth - 2 and step % self.EVERY != self.EVERY - 1:
            os.close(fd)
            self.fds[step] = None

    def close(self) -> None:
        self._drop(0)


def remove_tree(parent_fd: int, name: str) -> None:
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
    chain = Chain(parent_fd)
    try:
        while stack:
            rel = stack[-1]
            fd = chain.open(rel)
            names = list_dir(fd)
            for child, kind in names.items():
                if kind != "dir":
                    os.unlink(child, dir_fd=fd)
            subdirs = [f"{rel}/{c}" for c, kind in names.items() if kind == "dir"]
            if subdirs:
                stack += subdirs
                continue
            parent, _, leaf = rel.rpartition("/")
            os.rmdir(leaf, dir_fd=chain.open(parent))
            stack.pop()
    finally:
        chain.close()


def write(parent_fd: int, name: str, want: Entry) -> None:
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


def open_path(root_fd: int, rel: str) -> int:
    """An O_PATH descriptor for `rel` under `root_fd`, no step through a symlink (for bind mounts)."""
    parent, _, name = rel.rpartition("/")
    with opened(root_fd, parent) as fd:
        return os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
