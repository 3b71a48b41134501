"""Files a person uploads into the workspace (web UI and API), under the agent's own file rules.

The name goes through what a `write` call's path goes through: the permission policy's deny rules
and control-file check on the canonical path, the workspace's safe paths (nothing outside it, no
secret names, nothing in `.hearth/` or `.git/`), and a race-free open beneath the workspace that
follows no symlink and refuses a hardlink to a secret. Ask rules do not ask: the person uploading
is the one who would be asked. Size is capped; an existing file is replaced only when asked to.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hearth.agent.modes import PermissionMode
from hearth.agent.policy import Decision, PermissionPolicy
from hearth.core.errors import HearthError, ToolError
from hearth.runtime.config import Settings
from hearth.sandbox.guard import is_control_path
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import Tool, ToolInput

MAX_UPLOAD_BYTES = 25 << 20


class UploadRefused(HearthError):
    def __init__(self, status: int, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.status = status


class _UploadInput(ToolInput):
    path: str


# What the policy is asked about: a write of this path (same rules as the agent's `write`).
_WRITE = Tool("write", _UploadInput, lambda args, ctx: "", destructive=True)


@dataclass(frozen=True)
class Upload:
    path: str  # relative to the workspace
    size: int
    replaced: bool


def upload_target(settings: Settings, name: str) -> tuple[SafePaths, Path]:
    """Where an upload named `name` would go, or UploadRefused saying why not."""
    if not name.strip() or any(ord(c) < 32 for c in name):
        raise UploadRefused(
            400, f"{name!r} is not a usable file name.", "Give a path like uploads/photo.png."
        )
    if name.endswith(("/", os.sep)):
        raise UploadRefused(400, f"{name!r} names a folder.", "Add the file's name to the path.")
    paths = SafePaths(settings.workspace)
    policy = PermissionPolicy.from_settings(
        PermissionMode.AUTO, deny=settings.permissions.deny, ask=settings.permissions.ask
    )
    verdict = policy.decide(_WRITE, {"path": name}, paths)
    if verdict.decision is Decision.DENY:
        raise UploadRefused(403, f"Cannot upload to {name!r}: {verdict.reason}.")
    try:
        rel = paths.canonical(name)
        if is_control_path(rel):
            raise UploadRefused(
                403,
                f"{rel} is a control file (config, hooks, MCP, tasks); uploads never replace one.",
                "Upload it under another name and move it yourself.",
            )
        return paths, paths.resolve(name, write=True)
    except ToolError as exc:
        raise UploadRefused(403, f"Cannot upload to {name!r}: {exc}") from None


def save_upload(settings: Settings, name: str, data: bytes, *, replace: bool = False) -> Upload:
    paths, target = upload_target(settings, name)
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadRefused(
            413, f"The upload is over {MAX_UPLOAD_BYTES >> 20} MB.", "Copy it in on the machine."
        )
    rel = os.path.relpath(target, paths.root)
    existed = os.path.lexists(target)
    if existed and os.path.isdir(target):
        raise UploadRefused(409, f"{rel} is a folder.", "Give a file name inside it.")
    if existed and not replace:
        raise UploadRefused(
            409, f"{rel} already exists.", "Upload it under another name, or ask to replace it."
        )
    try:
        paths.makedirs(target.parent)
        fd = paths.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except ToolError as exc:
        raise UploadRefused(403, f"Cannot upload to {rel}: {exc}") from None
    except OSError as exc:
        raise UploadRefused(403, f"Cannot upload to {rel}: {exc.strerror or exc}.") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return Upload(path=rel, size=len(data), replaced=existed)
