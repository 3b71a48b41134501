"""Pieces every command of the CLI uses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

if TYPE_CHECKING:
    from hearth.runtime.config import LoadedSettings
    from hearth.store.sessions import SessionStore

WorkspaceOpt = Annotated[Path | None, typer.Option("--workspace", "-w", help="Folder the agent works in")]


def fail(exc: Exception) -> NoReturn:
    sys.stderr.write(f"error: {exc}\n")
    raise typer.Exit(1)


def usage(message: str) -> NoReturn:
    """A usage error of ours (as Typer's own): exit 64, not 1 (an error of the run) nor 2 (limit)."""
    from hearth.apps.cli.typerfix import USAGE_EXIT

    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(USAGE_EXIT)


def load_cli_settings(**flags: Any) -> LoadedSettings:
    from hearth.runtime.config import load_settings

    return load_settings(flags)


def open_session_store(
    workspace: Path | None, session_id: str | None = None
) -> tuple[SessionStore, str, Path]:
    """The workspace's session store, the full id `session_id` names (or the latest), and the workspace."""
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = load_cli_settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
        sid = store.resolve(session_id) if session_id else store.latest()
        if sid is None:
            raise HearthError(
                "There are no sessions in this workspace.", 'Start one with `hearth run "task"`.'
            )
    except HearthError as exc:
        fail(exc)
    return store, sid, settings.workspace
