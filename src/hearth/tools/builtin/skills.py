"""Skills: `SKILL.md` folders. Their names and descriptions are listed compactly in the `skill`
tool's description; a skill's body enters the conversation only when the model loads it.
Scripts beside a skill are only named: they run, like any command, through the sandboxed shell."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, create_model

from hearth.core.errors import ToolError
from hearth.sandbox.dirfd import made
from hearth.tools.base import RunContext, Tool, ToolInput

MAX_BODY = 20_000  # characters of a SKILL.md body shown; the rest is cut, and the result says so
MAX_DESCRIPTION = 120  # per skill in the listing
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n?", re.DOTALL)
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: Path  # the SKILL.md file


def parse_skill(path: Path) -> Skill | None:
    """The skill in `path` (a SKILL.md), or None when it has no valid name and description."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return parse_skill_text(text, path)


def parse_skill_text(text: str, path: Path) -> Skill | None:
    """The skill a SKILL.md text declares (its folder's name when the front matter names none)."""
    m = _FRONT.match(text)
    if not m:
        return None
    fields: dict[str, str] = {}
    for line in m.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith((" ", "\t")):
            fields[key.strip().lower()] = value.strip().strip("'\"")
    name = fields.get("name", path.parent.name).strip().lower()
    desc = " ".join(fields.get("description", "").split())
    if not _NAME.match(name) or not desc:
        return None
    return Skill(name, desc[:MAX_DESCRIPTION], path)


def discover(folders: Iterable[Path]) -> list[Skill]:
    """Skills in `<folder>/<name>/SKILL.md`, earlier folders winning a name."""
    found: dict[str, Skill] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for md in sorted(folder.glob("*/SKILL.md")):
            skill = parse_skill(md)
            if skill and skill.name not in found:
                found[skill.name] = skill
    return sorted(found.values(), key=lambda s: s.name)


def _body(skill: Skill) -> str:
    text = skill.path.read_text(encoding="utf-8", errors="replace")
    m = _FRONT.match(text)
    body = text[m.end() :] if m else text
    out = body.strip()
    if len(out) > MAX_BODY:
        out = out[:MAX_BODY] + f"\n[cut at {MAX_BODY} characters]"
    folder = skill.path.parent
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p != skill.path)
    if files:
        out += f"\n\nFiles beside it in {folder} (run scripts with the shell tool):\n" + "\n".join(files[:50])
    return out


class _SkillInput(ToolInput):
    name: str = Field(min_length=1)


def skill_tool(skills: list[Skill]) -> Tool | None:
    """The `skill` tool listing `skills`, or None when there are none (no prompt cost)."""
    if not skills:
        return None
    by_name = {s.name: s for s in skills}
    listing = "\n".join(f"- {s.name}: {s.description}" for s in skills)
    doc = f"Load a skill's instructions before doing what it covers. Skills:\n{listing}"
    model = create_model("SkillInput", __base__=_SkillInput, __doc__=doc)

    def load(args: _SkillInput, ctx: RunContext) -> str:
        skill = by_name.get(args.name.strip().lower())
        if skill is None:
            raise ToolError(f"No skill {args.name!r}. Skills: {', '.join(by_name)}.")
        try:
            return _body(skill)
        except OSError as e:
            raise ToolError(f"Cannot read skill {skill.name}: {e}") from e

    return Tool("skill", model, load, read_only=True)


class PromoteSkillInput(ToolInput):
    """Make a candidate skill (from memory_search) a skill for later sessions; the user approves."""

    id: int
    place: Literal["workspace", "user"] = "workspace"


CandidateText = Callable[[RunContext, int], str | None]
"""The text of project memory item `id` when it is a candidate skill (SKILL.md with front matter)."""


def _create(folder: Path, workspace: Path | None) -> int:
    """A new SKILL.md in `folder`; under the workspace (whose `.hearth` a repository or a command
    may have made a symlink) every step from the workspace down is made and opened without
    following a symlink."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    if workspace is None:
        folder.mkdir(parents=True, exist_ok=True)
        return os.open(folder / "SKILL.md", flags, 0o644)
    root = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        with made(root, folder.relative_to(workspace).as_posix()) as fd:
            return os.open("SKILL.md", flags, 0o644, dir_fd=fd)
    finally:
        os.close(root)


Approve = Callable[[RunContext, str, Path], str]
"""Called with the place and the SKILL.md written; says what later sessions will do with it."""


def promote_skill_tool(
    candidate: CandidateText, folders: Callable[[RunContext], dict[str, Path]], approve: Approve | None = None
) -> Tool:
    """`promote_skill`: writes `<folder>/<name>/SKILL.md` from a candidate. A control file (a skill
    is instructions the model follows), so the call always asks the user first, whatever the mode
    or rules; with no one to ask it is refused and nothing is written."""

    def promote(args: PromoteSkillInput, ctx: RunContext) -> str:
        text = candidate(ctx, args.id)
        if text is None:
            raise ToolError(f"Memory item {args.id} is not a candidate skill; memory_search lists them.")
        skill = parse_skill_text(text, Path("candidate", "SKILL.md"))  # as discovery will read it
        if skill is None or skill.name == "candidate":
            raise ToolError(f"Memory item {args.id} has no valid name and description in its front matter.")
        folder = folders(ctx)[args.place] / skill.name
        target = folder / "SKILL.md"
        try:
            fd = _create(folder, ctx.workspace if args.place == "workspace" else None)
        except FileExistsError:
            raise ToolError(
                f"A skill {skill.name!r} already exists at {target}; choose another name."
            ) from None
        except OSError as e:
            raise ToolError(f"Cannot write {target}: {e}") from e
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text.rstrip("\n") + "\n")
        later = approve(ctx, args.place, target) if approve else "later sessions discover it"
        return f"Skill {skill.name!r} written to {target}; {later}."

    return Tool("promote_skill", PromoteSkillInput, promote, control=True)
