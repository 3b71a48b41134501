"""Which skill folders a session sees: the user's own (`<user data>/skills`) always; the
workspace's (`.hearth/skills`, `.agents/skills`, `.claude/skills`) only once the user trusted
that workspace (`hearth trust`), since a skill is instructions the model follows."""

from __future__ import annotations

from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.config import trust_store, user_data_path
from hearth.tools.base import Tool
from hearth.tools.builtin.skills import Skill, discover, skill_tool

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
