"""create_patch: propose a change as a unified diff for a person to review; nothing changes until
they apply it (`hearth patches apply`). The runtime hands in where proposals are kept."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput

Propose = Callable[[RunContext, str, str, list[str]], int]
"""(context, diff, note, the files it changes) -> the proposal's number."""

_HEADER = re.compile(r"^(?:---|\+\+\+) (?:[ab]/)?(\S+)", re.MULTILINE)
MAX_DIFF = 200_000


class CreatePatchInput(ToolInput):
    """Propose a unified diff for the user to review and apply; changes no file."""

    diff: str = Field(min_length=1)
    note: str = ""


def diff_files(diff: str) -> list[str]:
    """The files a unified diff names (`/dev/null` left out), in order, each once."""
    names = [n for n in _HEADER.findall(diff) if n != "/dev/null"]
    return list(dict.fromkeys(names))


def patch_tool(propose: Propose) -> Tool:
    def create(args: CreatePatchInput, ctx: RunContext) -> str:
        if len(args.diff) > MAX_DIFF:
            raise ToolError(f"The diff has {len(args.diff)} characters; propose at most {MAX_DIFF} at once.")
        files = diff_files(args.diff)
        if not files or "\n@@" not in "\n" + args.diff:
            raise ToolError(
                "That is not a unified diff: give ---/+++ file headers and @@ hunks (as git diff prints)."
            )
        for name in files:
            ctx.paths.resolve(name, write=True)  # outside, secret, .git/ or .hearth/: refused here
        number = propose(ctx, args.diff if args.diff.endswith("\n") else args.diff + "\n", args.note, files)
        return (
            f"Patch {number} proposed ({', '.join(files)}). No file changed: the user reviews it "
            f"(hearth patches show {number}) and applies or rejects it."
        )

    return Tool("create_patch", CreatePatchInput, create)
