"""`hearth health`: a short check for scripts and monitors, answered by the exit code.

Server reachable, the models the roles name served, the context window known, a sandbox, disk
space, the database readable. Faster and narrower than `hearth doctor` (no sandbox self-tests
beyond choosing one, no git); any `fail` makes the exit code 1.
"""

from __future__ import annotations

import shutil

from hearth.apps.cli.doctor import Check
from hearth.core.errors import HearthError
from hearth.core.text import shown_url
from hearth.llm.embedded import embedded_available, embedded_model, missing_packages
from hearth.llm.server_info import probe_server
from hearth.llm.urls import normalize_base_url
from hearth.pipeline.store import PipelineStore
from hearth.runtime.config import Settings, state_dir
from hearth.sandbox.choice import choose_sandbox
from hearth.store.sessions import SessionStore

LOW_DISK = 1 << 30
NO_DISK = 100 << 20


async def health(settings: Settings) -> list[Check]:
    checks = await _server(settings)
    checks.append(await _sandbox(settings))
    checks += _disk_and_store(settings)
    return checks


async def _server(settings: Settings) -> list[Check]:
    if not settings.model.url:
        if not embedded_available():
            return [Check("server", "fail", "no HEARTH_LLM_URL and no embedded model server installed")]
        chosen = embedded_model(settings.model.embedded.name)
        if settings.model.embedded.path is None and missing_packages(chosen):
            return [
                Check(
                    "server", "fail", f"the embedded model {chosen.name} is not installed; {chosen.install}"
                )
            ]
        return [Check("server", "ok", f"embedded model server, context {settings.model.embedded.context}")]
    try:
        base = normalize_base_url(settings.model.url)
    except HearthError as exc:
        return [Check("server", "fail", str(exc))]
    info = await probe_server(base, settings.model.api_key.get_secret_value(), settings.model.name)
    if not info.models:
        return [Check("server", "fail", f"{shown_url(base)} did not answer /models")]
    out = [Check("server", "ok", f"{shown_url(base)} serves {len(info.models)} model(s)")]
    wanted = {"main": settings.model.name} | {
        name: row.model for name, row in settings.model.roles.items() if row.model and not row.server
    }
    for role, model in sorted(wanted.items()):
        if not model:
            continue
        if model in info.models:
            out.append(Check("model", "ok", f"{role}: {model}"))
        else:
            out.append(Check("model", "fail", f"{role}: {model} is not served by {base}"))
    window = settings.model.context_window or info.context_window
    out.append(
        Check("window", "ok", f"{window} tokens")
        if window
        else Check("window", "warn", "unknown (set HEARTH_CONTEXT_WINDOW)")
    )
    return out


async def _sandbox(settings: Settings) -> Check:
    try:
        choice = await choose_sandbox(
            settings.sandbox.backend, settings.workspace, image=settings.sandbox.image
        )
    except HearthError as exc:
        return Check("sandbox", "fail", str(exc))
    await choice.runner.close()
    if not choice.runner.isolated:
        return Check("sandbox", "warn", f"{choice.runner.name} (does not isolate)")
    return Check("sandbox", "ok", choice.runner.name)


def _disk_and_store(settings: Settings) -> list[Check]:
    ws = settings.workspace
    if not ws.is_dir():
        return [Check("workspace", "fail", f"{ws} does not exist")]
    free = shutil.disk_usage(ws).free
    status = "ok" if free > LOW_DISK else "warn" if free > NO_DISK else "fail"
    out = [Check("disk", status, f"{free / (1 << 30):.1f} GiB free")]
    db = state_dir(ws) / "sessions.db"
    if not db.exists():
        return [*out, Check("store", "ok", "no database yet (created on first run)")]
    try:
        sessions = SessionStore(db)
        count = len(sessions.list_sessions(limit=1_000_000))
        sessions.close()
        queue = PipelineStore(db)
        counts = queue.counts()
        queue.close()
    except HearthError as exc:
        return [*out, Check("store", "fail", str(exc))]
    tasks = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no tasks"
    return [*out, Check("store", "ok", f"{count} sessions; pipeline: {tasks}")]
