"""Git config read as git reads it, and rewritten with only keys that cannot run anything.

A repository a sandboxed command created keeps its format, remotes, branch tracking and
identity; hooks paths, fsmonitor, filters, includes, pagers and the rest are dropped.
"""

from __future__ import annotations

import os
import subprocess
from functools import cache

from hearth.sandbox.dirfd import Entry, read_entry, write

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


@cache
def global_value(key: str) -> str:
    """A key of the user's own global git config (`user.email`), "" when unset or git cannot
    tell. Read from `/`, so no repository's config is read with it."""
    try:
        return subprocess.run(
            ["git", "config", "--global", "--get", key],
            capture_output=True,
            text=True,
            timeout=5,
            cwd="/",
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def user_identity() -> tuple[str, str]:
    """The name and email commits are made with: the user's own (their global config), a neutral
    one otherwise. A repository's own config still wins where git reads it."""
    return global_value("user.name") or "Hearth Agent", global_value("user.email") or "hearth@localhost"


def identity_config() -> str:
    """A global git config holding only the user's identity, for a sandboxed command's HOME: the
    sandbox hides the user's own config (hooks, helpers, includes), so without it git there could
    not tell who commits (`unable to auto-detect email address`), or named the sandbox's user."""
    name, email = user_identity()
    return safe_config([("user.name", name), ("user.email", email)])


def key_shape(key: str) -> str:
    """`remote.origin.url` -> `remote.*.url`; `core.hookspath` stays."""
    section, _, rest = key.partition(".")
    sub, _, name = rest.rpartition(".")
    return f"{section}.*.{name}" if sub else f"{section}.{name}"


def allowed_key(key: str) -> bool:
    return key_shape(key) in SAFE_CONFIG_KEYS


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
        if not allowed_key(key) or any(c in (sub + (value or "")) for c in "\0\n\r"):
            continue
        if value is not None and any(ord(c) < 0x20 and c != "\t" for c in value):
            continue
        line = f"\t{name}" if value is None else f"\t{name} = {quote(value)}"
        sections.setdefault((section, sub or None), []).append(line)
    out = []
    for (section, subsection), lines in sections.items():
        out.append(f"[{section}]" if subsection is None else f"[{section} {quote(subsection)}]")
        out.extend(lines)
    return "\n".join(out) + "\n"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def sanitize_config(parent_fd: int, name: str) -> bool:
    """Rewrite a new repository's config with only safe keys; True when something was removed."""
    entry = read_entry(parent_fd, name)
    if entry is None or entry.kind != "file":
        return False
    pairs = None if entry.digest else config_pairs(entry.data)
    if pairs is not None and all(allowed_key(k) for k, _ in pairs):
        return False
    text = safe_config(pairs or [("core.repositoryformatversion", "0")])
    write(parent_fd, name, Entry("file", text.encode(), 0o644))
    return True
