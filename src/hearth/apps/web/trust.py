"""`/api/trust`: the workspace's own settings that are ignored until trusted, and the trust action.

Behind the login like every route; a browser's POST must come from the page's own
origin (auth.py), so neither the model nor another site can trust a workspace.
The page sends back the fingerprint of the settings it showed: if they changed
since, nothing is recorded. Trusted settings apply when `hearth web` starts again.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from hearth.apps.web.state import WebState
from hearth.core.errors import HearthError
from hearth.runtime.config import folder_settings, trust_store
from hearth.runtime.skills import approve_skills, workspace_skill_prints, workspace_skills


class TrustIn(BaseModel):
    fingerprint: str = Field(min_length=64, max_length=64)


class _Changed(HearthError):
    status = 409


def trust_router(state: WebState) -> APIRouter:
    router = APIRouter(prefix="/api", tags=["status"])

    def report() -> dict[str, Any]:
        workspace = state.settings.workspace
        fs = folder_settings(workspace)
        store = trust_store()
        record = store.get(workspace)
        rows = fs.needing_trust()
        skills = workspace_skills(workspace)
        if not rows and not skills:
            trust = "nothing to trust"
        elif record is None:
            trust = "untrusted"
        else:
            trust = "trusted" if record.fingerprint == fs.fingerprint else "changed"
        return {
            "workspace": str(workspace),
            "state": trust,
            "settings": [{"file": f, "name": n, "value": v} for f, n, v in rows],
            "skills": [
                {"name": s.name, "description": s.description, "file": str(s.path.relative_to(workspace))}
                for s in skills
            ],
            "fingerprint": fs.fingerprint,
            "can_trust": bool(rows or skills) and not store.inside(workspace),
            "trust_list": str(store.path),
        }

    @router.get("/trust")
    async def get_trust() -> dict[str, Any]:
        """The workspace's own settings that need trust (ignored until then), and its trust state."""
        return report()

    @router.post("/trust")
    async def post_trust(body: TrustIn) -> dict[str, Any]:
        """Trust the workspace with the settings the page showed (their fingerprint)."""
        workspace = state.settings.workspace
        fs = folder_settings(workspace)
        if fs.fingerprint != body.fingerprint:
            raise _Changed(
                "The workspace's settings changed since they were shown; nothing was recorded.",
                "Reload and review them again.",
            )
        names = sorted({name for _, name, _ in fs.needing_trust()})
        if workspace_skills(workspace):
            names.append("skills")
        if not names:
            raise HearthError(
                "Nothing to trust: the workspace's files set no safety settings and hold no skills."
            )
        trust_store().record(workspace, fs.fingerprint, names)
        approve_skills(workspace, workspace_skill_prints(workspace))  # the skills the page listed
        return {**report(), "message": "Trusted. Start hearth web again to use these settings."}

    @router.delete("/trust")
    async def delete_trust() -> dict[str, Any]:
        """Forget the trust given to the workspace (applies from the next start)."""
        trust_store().remove(state.settings.workspace)
        approve_skills(state.settings.workspace, {})  # its skills wait for review again too
        return report()

    return router
