"""`hearth sessions`: list, show, export and delete past sessions."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, open_session_store

sessions_app = typer.Typer(help="List and inspect past sessions.", invoke_without_command=True)
SessionArg = Annotated[str, typer.Argument(help="Session id (a unique prefix is enough)")]


@sessions_app.callback()
def sessions(ctx: typer.Context, workspace: WorkspaceOpt = None) -> None:
    """List the sessions of the workspace (newest first); a sub-agent's names its parent."""
    if ctx.invoked_subcommand is not None:
        return
    from hearth.apps.cli.common import load_cli_settings
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = load_cli_settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
    except HearthError as exc:
        fail(exc)
    infos = store.list_sessions()
    store.close()
    if not infos:
        print('No sessions yet in this workspace. Start one with `hearth run "task"`.')
        return
    print(f"{'id':<22}  {'status':<10}  {'updated':<16}  {'tokens in/cached/out':>22}  title")
    for s in infos:
        status = s.status + (f" until {s.wake_at[:16]}" if s.wake_at else "")
        tokens = f"{s.prompt_tokens}/{s.cached_tokens}/{s.completion_tokens}"
        updated = s.updated[:16].replace("T", " ")
        title = f"[sub-agent of {s.parent}] {s.title}" if s.parent else s.title
        print(f"{s.id:<22}  {status:<10}  {updated:<16}  {tokens:>22}  {title}")


@sessions_app.command("show")
def sessions_show(session_id: SessionArg, workspace: WorkspaceOpt = None) -> None:
    """Print a session's events as JSON Lines."""
    from hearth.apps.cli.jsonl import dumps, event_lines

    store, sid, _ = open_session_store(workspace, session_id)
    for event in store.events(sid):
        for line in event_lines(sid, event):
            sys.stdout.write(dumps(line) + "\n")
    store.close()


@sessions_app.command("export")
def sessions_export(
    session_id: SessionArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md | json")] = "md",
    workspace: WorkspaceOpt = None,
) -> None:
    """Print a session as Markdown (readable) or JSON (every event, as `--json` sends it)."""
    from hearth.runtime.export import to_json, to_markdown

    if fmt not in ("md", "json"):
        fail(ValueError(f"Unknown format {fmt!r}: use md or json."))
    store, sid, _ = open_session_store(workspace, session_id)
    events = store.events(sid)
    title = store.get(sid).title
    store.close()
    if fmt == "md":
        sys.stdout.write(to_markdown(events, f"{title} ({sid})"))
    else:
        sys.stdout.write(json.dumps(to_json(events, sid, title), indent=2, ensure_ascii=False) + "\n")


@sessions_app.command("rm")
def sessions_rm(session_id: SessionArg, workspace: WorkspaceOpt = None) -> None:
    """Delete a session and all its events."""
    store, sid, _ = open_session_store(workspace, session_id)
    store.delete(sid)
    store.close()
    print(f"Deleted session {sid}.")
