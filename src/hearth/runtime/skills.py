"""Which skill folders a session sees: the user's own (`<user data>/skills`) always; the
workspace's (`.hearth/skills`, `.agents/skills`, `.claude/skills`) each only as reviewed.

A skill is instructions the model follows (and scripts beside them), so `hearth trust` shows
the workspace's skills and records a fingerprint of each one's folder (every file in it) in
the user's config folder. A skill added or changed after that is not loaded until `hearth trust`
is run again: one approval per skill, as it was when the person saw it.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.config import user_config_path, user_data_path
from hearth.runtime.memory_scopes import memory_path, open_memory
from hearth.runtime.trust import TrustStore
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.skills import Skill, discover, promote_skill_tool, skill_tool

WORKSPACE_FOLDERS = (".hearth/skills", ".agents/skills", ".claude/skills")
SKILLS_FILE = "approved-skills.json"


def workspace_skills(workspace: Path) -> list[Skill]:
    """The workspace's own skills, reviewed or not (for `hearth trust` and the web to show)."""
    return discover(workspace / f for f in WORKSPACE_FOLDERS)


def skill_approvals() -> TrustStore:
    return TrustStore(user_config_path().parent / SKILLS_FILE)


def workspace_skill_prints(workspace: Path) -> dict[str, str]:
    """Each workspace skill's folder (relative to the workspace) -> a hash of every file in it."""
    out: dict[str, str] = {}
    for folder in WORKSPACE_FOLDERS:
        base = workspace / folder
        if not base.is_dir() or base.is_symlink():
            continue
        for md in sorted(base.glob("*/SKILL.md")):
            out[f"{folder}/{md.parent.name}"] = _folder_hash(md.parent)
    return out


def _folder_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(folder):  # follows no symlinked folder
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            try:
                if stat.S_ISLNK(os.lstat(path).st_mode):
                    digest.update(b"link:" + os.readlink(path).encode())
                digest.update(path.read_bytes())
            except OSError as exc:
                digest.update(f"unreadable:{exc.errno}".encode())
            digest.update(b"\0")
    return digest.hexdigest()


def approve_skills(workspace: Path, prints: dict[str, str]) -> None:
    """Record the workspace's skills as the person saw them (`prints`), or forget them (none)."""
    store = skill_approvals()
    if prints:
        combined = hashlib.sha256(repr(sorted(prints.items())).encode()).hexdigest()
        store.record(workspace, combined, [f"{rel}={digest}" for rel, digest in sorted(prints.items())])
    else:
        store.remove(workspace)


def approved_skill_folders(workspace: Path) -> list[Path]:
    """The workspace's skill folders approved as they are now (unreviewed ones left out)."""
    try:
        record = skill_approvals().get(workspace)
    except HearthError:
        return []
    if record is None:
        return []
    approved = dict(entry.rpartition("=")[::2] for entry in record.settings)
    return [
        workspace / rel
        for rel, digest in workspace_skill_prints(workspace).items()
        if approved.get(rel) == digest
    ]


def session_skills(workspace: Path) -> list[Skill]:
    """The approved workspace skills (winning a name, as before) and the user's own."""
    found: dict[str, Skill] = {}
    for folder in approved_skill_folders(workspace):
        for skill in discover([folder.parent]):
            if skill.path.parent == folder and skill.name not in found:
                found[skill.name] = skill
    for skill in discover([user_data_path() / "skills"]):
        found.setdefault(skill.name, skill)
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
    """What becomes of a promoted skill, said truly: the person approved writing it (promote_skill
    always asks), so a workspace skill is recorded as approved as it was written."""
    if place == "user" or approve_promoted(ctx.workspace, skill_file.parent):
        return "later sessions discover it"
    return (
        "sessions read a workspace's skills only as reviewed: run "
        f"`hearth trust {ctx.workspace}` (its approval could not be recorded: the user's config "
        "folder lies inside the workspace)"
    )


def approve_promoted(workspace: Path, folder: Path) -> bool:
    """Add one skill folder, as it is now, to the workspace's approved skills; False when it
    cannot be recorded."""
    prints = workspace_skill_prints(workspace)
    rel = folder.relative_to(workspace).as_posix()
    if rel not in prints:
        return False
    try:
        record = skill_approvals().get(workspace)
        approved = dict(e.rpartition("=")[::2] for e in record.settings) if record is not None else {}
        approved[rel] = prints[rel]
        approve_skills(workspace, approved)
    except (HearthError, OSError):
        return False
    return True
