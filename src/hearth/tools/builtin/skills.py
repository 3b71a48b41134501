"""Skills: `SKILL.md` folders. Their names and descriptions are listed compactly in the `skill`
tool's description; a skill's body enters the conversation only when the model loads it.
Scripts beside a skill are only named: they run, like any command, through the sandboxed shell."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, create_model

from hearth.core.errors import ToolError
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
