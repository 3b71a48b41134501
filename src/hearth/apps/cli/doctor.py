"""`hearth doctor`: grouped diagnostics, each with what to do when it is not fine."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from hearth import __version__
from hearth.core.errors import HearthError
from hearth.core.text import shown_url
from hearth.llm.embedded import embedded_available, embedded_model, missing_packages
from hearth.llm.server_info import probe_server
from hearth.llm.urls import normalize_base_url
from hearth.runtime.config import Settings, state_dir
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.limits import ProcessGroup, ResourceLimits
from hearth.telemetry.traces import configure_traces, traces_url


@dataclass(frozen=True)
class Check:
    group: str
    status: str  # "ok" | "warn" | "fail"
    message: str


async def run_checks(settings: Settings) -> list[Check]:
    checks = [
        Check("hearth", "ok", f"Hearth {__version__} on Python {sys.version.split()[0]} ({sys.platform})")
    ]
    checks += _workspace(settings.workspace)
    checks += await _sandbox(settings)
    checks += await _model(settings)
    checks += await _mcp(settings)
    git = shutil.which("git")
    if git:
        version = subprocess.run([git, "--version"], capture_output=True, text=True).stdout.strip()
        checks.append(Check("git", "ok", version))
    else:
        checks.append(Check("git", "warn", "git is not installed; the git tools will fail"))
    from hearth.runtime.memory_scopes import embedder_status

    status = embedder_status(settings)
    checks.append(Check("memory", "warn" if status.startswith("keyword-only") else "ok", status))
    checks += _traces(settings)
    return checks


def _traces(settings: Settings) -> list[Check]:
    if not settings.telemetry.otel_endpoint:
        return []
    try:
        configure_traces(settings).shutdown()
    except HearthError as exc:
        return [Check("traces", "fail", f"{exc.message} {exc.hint}".strip())]
    return [
        Check(
            "traces",
            "ok",
            f"OpenTelemetry spans over OTLP/HTTP to {traces_url(settings.telemetry.otel_endpoint)}",
        )
    ]


async def _mcp(settings: Settings) -> list[Check]:
    """Each configured MCP server started in the sandbox, as a session would, and stopped again."""
    from hearth.runtime.mcp_servers import start_servers
    from hearth.tools.toolset import Toolset

    if not settings.workspace.is_dir():
        return []
    try:
        sandbox = await choose_sandbox(
            settings.sandbox.backend, settings.workspace, image=settings.sandbox.image
        )
    except HearthError:
        return []  # the sandbox check says why
    try:
        servers = start_servers(sandbox.runner, settings.workspace, Toolset())
        try:
            await servers.settled()
            checks = [
                Check("mcp", "ok" if s.state == "ready" else "warn", s.line()) for s in servers.status()
            ]
            return checks + [Check("mcp", "warn", note) for note in servers.notes]
        finally:
            await servers.stop()
    finally:
        await sandbox.runner.close()


def _workspace(ws: Path) -> list[Check]:
    if not ws.is_dir():
        return [Check("workspace", "fail", f"{ws} does not exist; create it or pass --workspace")]
    out = [Check("workspace", "ok", str(ws))]
    free = shutil.disk_usage(ws).free
    out.append(Check("disk", "ok" if free > 1 << 30 else "warn", f"{free / (1 << 30):.1f} GiB free"))
    state = state_dir(ws)
    out.append(Check("state", "ok", f"{state} (this workspace's sessions, logs and checkpoints)"))
    db = state / "sessions.db"
    if db.exists():
        try:
            from hearth.store.sessions import SessionStore

            store = SessionStore(db)
            count = len(store.list_sessions(limit=100000))
            store.close()
            out.append(Check("database", "ok", f"{db} ({count} sessions)"))
        except HearthError as exc:
            out.append(Check("database", "fail", str(exc)))
    else:
        out.append(Check("database", "ok", f"{db} (created on first run)"))
    return out


async def _sandbox(settings: Settings) -> list[Check]:
    try:
        choice = await choose_sandbox(
            settings.sandbox.backend, settings.workspace, image=settings.sandbox.image
        )
    except HearthError as exc:
        return [Check("sandbox", "fail", str(exc))]
    out = [Check("sandbox", "warn" if choice.warning else "ok", choice.describe())]
    out += [Check("sandbox", "ok", f"not used: {name}: {why}") for name, why in choice.tried]
    if choice.warning and choice.warning not in out[0].message:
        out.append(Check("sandbox", "warn", choice.warning))
    group = ProcessGroup.create(ResourceLimits())
    out.append(
        Check(
            "limits",
            "ok",
            "cgroup: process and memory limits per command"
            if group.active
            else "rlimits only (no cgroup could be created here)",
        )
    )
    group.remove()
    await choice.runner.close()
    return out


async def _model(settings: Settings) -> list[Check]:
    if not settings.model.url:
        if not embedded_available():
            return [
                Check(
                    "model",
                    "fail",
                    "no HEARTH_LLM_URL, and the embedded model server is not installed "
                    "(./scripts/quickstart installs it)",
                )
            ]
        if settings.model.embedded.path is not None:
            return [Check("model", "ok", f"embedded server with {settings.model.embedded.path}")]
        chosen = embedded_model(settings.model.embedded.name)
        missing = missing_packages(chosen)
        if missing:
            return [
                Check(
                    "model",
                    "fail",
                    f"{chosen.name}: {len(missing)} of its {len(chosen.packages)} packages missing "
                    f"({missing[0]}…); {chosen.install}",
                )
            ]
        return [Check("model", "ok", f"embedded {chosen.title}, context {settings.model.embedded.context}")]
    try:
        base = normalize_base_url(settings.model.url)
    except HearthError as exc:
        return [Check("model", "fail", str(exc))]
    info = await probe_server(base, settings.model.api_key.get_secret_value(), settings.model.name)
    if not info.models:
        return [Check("model", "fail", f"{shown_url(base)} did not answer /models; is the server running?")]
    out = [Check("model", "ok", f"{shown_url(base)}: models {', '.join(info.models[:8])}")]
    if settings.model.name and settings.model.name not in info.models:
        out.append(
            Check("model", "warn", f"HEARTH_MODEL={settings.model.name} is not among the server's models")
        )
    window = settings.model.context_window or info.context_window
    source = "configured" if settings.model.context_window else info.source
    out.append(
        Check(
            "context",
            "ok" if window else "warn",
            f"context window {window} ({source})"
            if window
            else "context window unknown; set HEARTH_CONTEXT_WINDOW",
        )
    )
    return out
