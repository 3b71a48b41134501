"""`vision`: ask a vision-capable model about an image in the workspace.

Offered only when a role has the `vision` flag (the runtime hands in how to ask it). The image is
opened through the workspace's safe paths like `read` (secrets and paths outside refused), checked
by its first bytes to be PNG, JPEG, GIF or WebP, capped in size, and sent as a data URL.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Awaitable, Callable

from pydantic import AliasChoices, Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput

MAX_IMAGE = 10 << 20
Ask = Callable[[str, str], Awaitable[str]]  # (question, data URL) -> the vision model's answer


class VisionInput(ToolInput):
    """Ask a vision model about an image file (PNG, JPEG, GIF, WebP) in the workspace."""

    path: str
    question: str = Field(
        min_length=1, validation_alias=AliasChoices("question", "prompt"), description="What to ask about it"
    )


def image_type(head: bytes) -> str | None:
    """The image's MIME type by its first bytes; None when it is not an image `vision` sends."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def vision_tools(ask: Ask, role: str) -> list[Tool]:
    """`role`: the name of the role that sees (said in errors)."""

    async def vision(args: VisionInput, ctx: RunContext) -> str:
        path = ctx.paths.resolve(args.path)
        if not path.exists():
            raise ToolError(f"{args.path!r} does not exist. Use glob or ls to find the image.")
        if path.is_dir():
            raise ToolError(f"{args.path!r} is a folder, not an image.")
        try:
            with os.fdopen(ctx.paths.open(path, os.O_RDONLY), "rb") as fh:
                data = fh.read(MAX_IMAGE + 1)
        except OSError as exc:
            raise ToolError(f"Could not open {args.path!r}: {exc.strerror or exc}.") from None
        if len(data) > MAX_IMAGE:
            raise ToolError(f"{args.path!r} is over {MAX_IMAGE >> 20} MB; make a smaller copy first.")
        kind = image_type(data[:16])
        if kind is None:
            raise ToolError(f"{args.path!r} is not a PNG, JPEG, GIF or WebP image; vision reads only those.")
        url = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
        try:
            answer = await ask(args.question, url)
        except ToolError:
            raise
        except Exception as exc:
            raise ToolError(f"The vision model (role {role!r}) could not answer: {exc}") from None
        return answer.strip() or f"(the vision model, role {role!r}, gave an empty answer)"

    return [Tool("vision", VisionInput, vision, read_only=True, aliases=("view_image", "image"))]
