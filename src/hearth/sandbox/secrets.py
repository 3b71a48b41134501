"""Which workspace files hold secrets: one answer for the file tools, the shell sandbox and the web UI.

A path is secret when one of its folders is a credentials folder (`.ssh`, `.aws`, ...), when its
name is a usual name for secrets (`.env` and every variant of it, `.envrc`, keys, credential
files), or when it is a hardlink to such a file elsewhere in the workspace. Symlinks are judged
by where they lead: callers pass the canonical path. Templates meant to be shared
(`.env.example`, `.env-sample`, `example.env`) are not secret.

`SecretIndex` finds them at any depth, `node_modules/` and `.venv/` included, for the shell
sandbox (which hides each one) and for hardlink checks. A folder is listed again only when its
mtime changed, so a repeated scan of a large tree costs one `stat` per folder.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

SECRET_NAMES = (
    # dotenv and direnv files, in every spelling people use
    ".env",
    ".env.*",
    ".env-*",
    ".env_*",
    "*.env",
    ".envrc",
    # login and registry credentials
    ".netrc",
    "_netrc",
    ".git-credentials",
    ".pypirc",
    ".npmrc",
    ".pgpass",
    ".htpasswd",
    ".my.cnf",
    ".s3cfg",
    ".boto",
    ".dockercfg",
    "credentials",
    "credentials.json",
    "credentials.yml",
    "credentials.yaml",
    "credentials.toml",
    "client_secret*.json",
    "service-account*.json",
    "secrets.json",
    "secrets.yml",
    "secrets.yaml",
    "secrets.toml",
    ".secrets",
    # keys and key stores
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.ppk",
    "*.kdbx",
    "*.keytab",
)
SECRET_DIRS = frozenset({".ssh", ".aws", ".gnupg", ".docker", ".kube", ".azure", ".password-store"})
SHAREABLE_WORDS = frozenset({"example", "examples", "sample", "template", "tmpl", "dist", "defaults"})
NOT_SCANNED = frozenset({".git", ".hearth"})  # git's own store; Hearth's (hidden from the shell whole)

_NAME = re.compile("|".join(fnmatch.translate(p) for p in SECRET_NAMES), re.IGNORECASE)
_WORDS = re.compile(r"[._-]+")
_RACY_NS = 2_000_000_000  # a folder changed this recently may change again within its mtime tick


def is_secret_name(name: str) -> bool:
    """A file name people use for secrets (`prod.env`, `.env_local`, `id_ed25519`), templates excepted."""
    if _NAME.match(name) is None:
        return False
    return not any(w in SHAREABLE_WORDS for w in _WORDS.split(name.lower()))


def is_secret_path(rel: str | PurePosixPath) -> bool:
    """By name alone: `rel` (relative to the workspace, canonical) is or lies in a secret."""
    parts = PurePosixPath(rel).parts
    if not parts or parts == (".",):
        return False
    return any(p in SECRET_DIRS for p in parts) or is_secret_name(parts[-1])


@dataclass(frozen=True)
class Inventory:
    """What one scan found, as paths relative to the workspace."""

    files: tuple[str, ...] = ()  # secret files (not inside a secret folder), hardlinks to them included
    dirs: tuple[str, ...] = ()  # secret folders, hidden whole
    inodes: dict[tuple[int, int], str] = field(default_factory=dict)  # (dev, ino) of a secret -> its path


@dataclass(frozen=True)
class _Listing:
    mtime_ns: int
    trusted: bool
    subdirs: tuple[str, ...]
    secret_files: tuple[str, ...]
    secret_dirs: tuple[str, ...]
    linked: tuple[tuple[str, int, int], ...]  # regular files with more than one link: name, dev, ino


class SecretIndex:
    """The secrets of one workspace, found by a walk that follows no symlink."""

    def __init__(self, root: Path | str) -> None:
        self.root = os.path.realpath(root)
        self._cache: dict[str, _Listing] = {}
        self._lock = threading.Lock()

    def scan(self) -> Inventory:
        with self._lock:
            return self._scan()

    def _scan(self) -> Inventory:
        started = time.time_ns()
        cache: dict[str, _Listing] = {}
        files: list[str] = []
        dirs: list[str] = []
        secret_inside: list[str] = []  # files inside secret folders: their inodes count too
        linked: list[tuple[str, int, int]] = []
        stack: list[tuple[str, bool]] = [("", False)]
        while stack:
            rel, in_secret = stack.pop()
            listing = self._listing(rel, started)
            if listing is None:
                continue
            cache[rel] = listing
            prefix = f"{rel}/" if rel else ""
            if in_secret:
                secret_inside.extend(prefix + n for n in listing.secret_files)
            else:
                files.extend(prefix + n for n in listing.secret_files)
                dirs.extend(prefix + n for n in listing.secret_dirs)
            linked.extend((prefix + n, dev, ino) for n, dev, ino in listing.linked)
            stack.extend((prefix + n, in_secret) for n in listing.subdirs)
            stack.extend((prefix + n, True) for n in listing.secret_dirs)
        self._cache = cache
        inodes: dict[tuple[int, int], str] = {}
        for rel in (*files, *secret_inside):
            try:
                st = os.stat(os.path.join(self.root, rel), follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                inodes[(st.st_dev, st.st_ino)] = rel
        known = set(files)
        files += [rel for rel, dev, ino in linked if (dev, ino) in inodes and rel not in known]
        return Inventory(tuple(files), tuple(dirs), inodes)

    def _listing(self, rel: str, started: int) -> _Listing | None:
        path = os.path.join(self.root, rel) if rel else self.root
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            return None
        if not stat.S_ISDIR(st.st_mode):
            return None  # swapped for a symlink or a file since its parent was listed
        old = self._cache.get(rel)
        if old is not None and old.trusted and old.mtime_ns == st.st_mtime_ns:
            return old
        in_secret = any(p in SECRET_DIRS for p in PurePosixPath(rel).parts)
        subdirs: list[str] = []
        secret_files: list[str] = []
        secret_dirs: list[str] = []
        linked: list[tuple[str, int, int]] = []
        try:
            with os.scandir(path) as entries:
                for e in entries:
                    if e.is_dir(follow_symlinks=False):
                        if e.name in NOT_SCANNED:
                            continue
                        (secret_dirs if e.name in SECRET_DIRS and not in_secret else subdirs).append(e.name)
                    elif e.is_symlink():
                        continue  # judged by its target, which is listed where it lives
                    elif in_secret or is_secret_name(e.name):
                        secret_files.append(e.name)
                    elif e.is_file(follow_symlinks=False):
                        try:
                            est = e.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        if est.st_nlink > 1:
                            linked.append((e.name, est.st_dev, est.st_ino))
        except OSError:
            return None
        trusted = st.st_mtime_ns < started - _RACY_NS
        return _Listing(
            st.st_mtime_ns, trusted, tuple(subdirs), tuple(secret_files), tuple(secret_dirs), tuple(linked)
        )


_indexes: dict[str, SecretIndex] = {}
_indexes_lock = threading.Lock()


def secret_index(root: Path | str) -> SecretIndex:
    """The shared index of one workspace (its cache is what makes repeated scans cheap)."""
    real = os.path.realpath(root)
    with _indexes_lock:
        index = _indexes.get(real)
        if index is None:
            index = _indexes[real] = SecretIndex(real)
        return index


# Names a glob in a command is tried against when the workspace's own secrets are not known.
_SAMPLE_SECRETS = (
    ".env", ".env.local", ".envrc", "prod.env", ".netrc", ".git-credentials", ".npmrc", ".pypirc",
    "credentials", "credentials.json", "secrets.json", "secrets.yaml", "id_rsa", "id_ed25519",
    "server.pem", "server.key", ".ssh/id_rsa", ".aws/credentials",
)  # fmt: skip
_PIECE = re.compile(r"[^\s'\"`;|&<>(){}\[\],$=:]+")
_GLOB_CHARS = re.compile(r"[*?\[]")


def command_names_secret(command: str, known: Iterable[str] = ()) -> str | None:
    """The first piece of a shell command that names a secret (by the predicate above), or a glob
    that matches one of `known` (secrets relative to the workspace; the usual names when none are
    given); None when it names none. For backends that cannot hide secrets from a command (Landlock
    grants the whole workspace): there a command that names one asks first. Quotes and backslashes
    are removed first (`cat .e''nv`). A command can still build a name at run time; this catches
    what it says, which is what a person approving it reads."""
    plain = command.replace("\\", "").replace("'", "").replace('"', "")
    candidates = tuple(known) or _SAMPLE_SECRETS
    for text in (plain, command):
        for piece in _PIECE.findall(text):
            path = piece.rstrip("/")
            if _GLOB_CHARS.search(path):
                if _glob_matches(path.removeprefix("./"), candidates):
                    return piece
            elif is_secret_path(PurePosixPath(path.removeprefix("~/"))):
                return piece
    return None


def _glob_matches(pattern: str, secrets: tuple[str, ...]) -> bool:
    """Whether a shell glob could name one of `secrets` (by path, or by its last part anywhere)."""
    base = pattern.rsplit("/", 1)[-1]
    for rel in secrets:
        if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], base):
            return True
        parts = rel.split("/")
        if any(fnmatch.fnmatchcase(p, base) for p in parts[:-1] if p in SECRET_DIRS):
            return True
    return False
