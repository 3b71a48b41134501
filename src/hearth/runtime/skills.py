"""Which skill folders a session sees: the user's own (`<user data>/skills`) always; the
workspace's (`.hearth/skills`, `.agents/skills`, `.claude/skills`) once the user trusted
that workspace (`hearth trust` lists them), since a skill is instructions the model follows.
A skill the user promoted into the workspace (`promote_skill`, which always asks) is read
without that trust, as long as its SKILL.md is what was approved (its digest is recorded in
the user's config folder, where the agent cannot write)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hearth.core.errors import ConfigError, HearthError
from hearth.runtime.config import trust_store, user_config_path, user_data_path
from hearth.runtime.memory import memory_path, open_memory
from hearth.runtime.trust import TrustStore
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.skills import Skill, discover, promote_skill_tool, skill_tool

WORKSPACE_FOLDERS = (".hearth/skills", ".agents/skills", ".claude/skills")
APPROVED_FILE = "approved-skills.json"


def approved_skills() -> TrustStore:
    """Skills promoted into a workspace: each skill folder with the digest of its SKILL.md."""
    return TrustStore(user_config_path().parent / APPROVED_FILE)


def _digest(path: Path) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def approve_skill(skill_file: Path) -> bool:
    """Record a promoted skill as approved as it is now; False when it cannot be (the user's
    config folder lies inside the workspace)."""
    digest = _digest(skill_file)
    if digest is None:
        return False
    try:
        approved_skills().record(skill_file.parent, digest, [skill_file.parent.name])
    except (ConfigError, OSError):
        return False
    return True


def _approved(skill: Skill) -> bool:
    try:
        record = approved_skills().get(skill.path.parent)
    except HearthError:
        return False
    return record is not None and record.fingerprint == _digest(skill.path)


def workspace_skills(workspace: Path) -> list[Skill]:
    """The workspace's own skills, trusted or not (for `hearth trust` to show)."""
    return discover(workspace / f for f in WORKSPACE_FOLDERS)


def workspace_trusted(workspace: Path) -> bool:
    try:
        return trust_store().get(workspace) is not None
    except HearthError:
        return False


def skill_folders(workspace: Path) -> list[Path]:
    folders = [workspace / f for f in WORKSPACE_FOLDERS] if workspace_trusted(workspace) else []
    return [*folders, user_data_path() / "skills"]


def session_skills(workspace: Path) -> list[Skill]:
    if workspace_trusted(workspace):
        return discover(skill_folders(workspace))
    promoted = [s for s in workspace_skills(workspace) if _approved(s)]
    found = {s.name: s for s in discover([user_data_path() / "skills"])}
    found.update({s.name: s for s in promoted})  # the workspace's wins a name, as when trusted
    return sorted(found.values(), key=lambda s: s.name)


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
    tool = promote_skill_tool(_candidate, lambda ctx: skill_places(ctx.workspace), approve=_promoted)
    return [tool] if has else []


def _promoted(ctx: RunContext, place: str, skill_file: Path) -> str:
    """What becomes of a promoted skill, said truly: a workspace's skill is recorded as approved."""
    if place == "user" or workspace_trusted(ctx.workspace) or approve_skill(skill_file):
        return "later sessions discover it"
    return (
        "sessions read a workspace's skills only once you trust it: run "
        f"`hearth trust {ctx.workspace}` (its approval could not be recorded: the user's config "
        "folder lies inside the workspace)"
    )
