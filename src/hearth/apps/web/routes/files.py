"""The workspace's files for the viewer: listed, and served inert, never `.env`, `.hearth/` or `.git/`;
and uploads into it, under the agent's own file rules (apps/web/uploads.py)."""

from __future__ import annotations

import asyncio
import mimetypes
import os
from pathlib import Path

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from hearth.apps.web.errors import Refused
from hearth.apps.web.state import State, WebState
from hearth.apps.web.uploads import MAX_UPLOAD_BYTES, save_upload, upload_target

router = APIRouter(prefix="/files", tags=["files"])

MAX_FILE_BYTES = 2_000_000
MAX_LISTED = 2000
HIDDEN_DIRS = frozenset({".hearth", ".git"})
SKIPPED_DIRS = frozenset({".git", ".hearth", "node_modules", "__pycache__", ".venv"})


class FileOut(BaseModel):
    path: str
    size: int


class FilesOut(BaseModel):
    files: list[FileOut]


class UploadOut(BaseModel):
    path: str
    size: int
    replaced: bool


@router.put("/upload")
async def upload(path: str, request: Request, state: State, replace: bool = False) -> UploadOut:
    """The request body becomes the file `path` in the workspace (25 MB at most). Refused like the
    agent's `write` would be (outside the workspace, a secret's name, `.hearth/` or `.git/`, a deny
    rule), and for a control file; an existing file is replaced only with `replace=true`."""
    settings = state.rt.settings
    declared = request.headers.get("content-length", "")
    too_big = Refused(413, f"The upload is over {MAX_UPLOAD_BYTES >> 20} MB.", "Copy it in on the machine.")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        raise too_big
    await asyncio.to_thread(upload_target, settings, path)  # refused before the body is read
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD_BYTES:
            raise too_big
    saved = await asyncio.to_thread(save_upload, settings, path, bytes(body), replace=replace)
    return UploadOut(path=saved.path, size=saved.size, replaced=saved.replaced)


@router.get("")
async def files(state: State) -> FilesOut:
    """Up to 2000 files, without secret files and Hearth's and git's own folders."""
    return FilesOut(files=await asyncio.to_thread(_list_files, state))


@router.get(
    "/raw",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}, "text/html": {}, "application/octet-stream": {}}}},
)
async def file_raw(path: str, state: State, preview: bool = False) -> Response:
    """A workspace file's bytes, served inert: as text, or (`preview`, HTML only) as a page
    that runs in a unique opaque origin without scripts, never as a live page on this origin."""
    data = await asyncio.to_thread(_read_file, state, path)
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    text_like = kind.startswith("text/") or kind in ("application/json", "application/javascript")
    if preview and kind == "text/html":
        media = "text/html; charset=utf-8"
    elif text_like:
        media = "text/plain; charset=utf-8"
    else:
        media = kind
    return Response(
        data,
        media_type=media,
        headers={
            "content-security-policy": (
                "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'"
            ),
            "x-frame-options": "SAMEORIGIN",
            "content-disposition": "inline",
        },
    )


def _list_files(state: WebState) -> list[FileOut]:
    paths = state.paths
    root = paths.root
    out: list[FileOut] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(names):
            full = os.path.join(folder, name)
            if paths.is_secret(Path(full)):
                continue
            try:
                size = os.path.getsize(full)
            except OSError:
                continue
            out.append(FileOut(path=os.path.relpath(full, root), size=size))
            if len(out) >= MAX_LISTED:
                return out
    return out


def _read_file(state: WebState, path: str) -> bytes:
    paths = state.paths
    try:
        resolved = paths.resolve(path)
    except Exception as exc:  # outside the workspace, a link out of it, ...
        raise Refused(403, f"Cannot show {path!r}: {exc}") from None
    if paths.is_secret(resolved):
        raise Refused(403, f"{path} holds secrets; the web UI does not show it.")
    inside = resolved.relative_to(paths.root).parts
    if any(part in HIDDEN_DIRS for part in inside[:-1]):
        # Hearth's own store and checkpoints (copies of every file, .env included) and git internals
        raise Refused(403, f"{path} is inside {'/'.join(inside[:1])}/, which the web UI does not show.")
    try:
        fd = paths.open(resolved, os.O_RDONLY)
    except FileNotFoundError:
        raise Refused(404, f"No file {path} in the workspace.") from None
    except OSError as exc:
        raise Refused(403, f"Cannot read {path}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Refused(413, f"{path} is larger than {MAX_FILE_BYTES} bytes; open it on the machine itself.")
    return data
