"""Which skill folders a session sees: the user's own (`<user data>/skills`) always; the
workspace's (`.hearth/skills`, `.agents/skills`, `.claude/skills`) only once the user trusted
that workspace (`hearth trust`), since a skill is instructions the model follows."""

from __future__ import annotations

from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.config import trust_store, user_data_path
from hearth.runtime.memory import memory_path, open_memory
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.skills import Skill, discover, promote_skill_tool, skill_tool

WORKSPACE_FOLDERS = (".hearth/skills", ".agents/skills", ".claude/skills")


def workspace_trusted(workspace: Path) -> bool:
    try:
        return trust_store().get(workspace) is not None
    except HearthError:
        return False


def skill_folders(workspace: Path) -> list[Path]:
    folders = [workspace / f for f in WORKSPACE_FOLDERS] if workspace_trusted(workspace) else []
    return [*folders, user_data_path() / "skills"]


def session_skills(workspace: Path) -> list[Skill]:
    return discover(skill_folders(workspace))


def skill_tools(workspace: Path) -> list[Tool]:
    tool = skill_tool(session_skills(workspace))
    return [tool] if tool else []


def skill_places(workspace: Path) -> dict[str, Path]:
    """Where promote_skill writes: the workspace's `.hearth/skills` (the agent's file tools and the
    shell cannot write under `.hearth`) or the user's skills folder."""
    return {"workspace": workspace / ".hearth" / "skills", "user": user_data_path() / "skills"}


def _candidate(ctx: RunContext, item_id: int) -> str | None:
    mem = open_memory("project", ctx.workspace)
    try:
        item = mem.get(item_id)
    finally:
        mem.close()
    return item.text if item is not None and item.kind == "skill_candidate" else None


def promotion_tools(workspace: Path) -> list[Tool]:
    """`promote_skill`, only when the project's memory holds candidate skills (no prompt cost else)."""
    if not memory_path("project", workspace).exists():
        return []
    try:
        mem = open_memory("project", workspace)
    except HearthError:
        return []
    try:
        has = bool(mem.items(1, kind="skill_candidate"))
    finally:
        mem.close()
    return [promote_skill_tool(_candidate, lambda ctx: skill_places(ctx.workspace))] if has else []
