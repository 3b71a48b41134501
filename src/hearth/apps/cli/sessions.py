"""`hearth sessions`: list, show, export and delete past sessions."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, open_session_store

if TYPE_CHECKING:
    from hearth.store.sessions import SessionInfo

sessions_app = typer.Typer(help="List and inspect past sessions.", invoke_without_command=True)
SessionArg = Annotated[str, typer.Argument(help="Session id (a unique prefix is enough)")]


@sessions_app.callback()
def sessions(ctx: typer.Context, workspace: WorkspaceOpt = None) -> None:
    """List the sessions of the workspace (newest first) as a tree: each sub-agent's session under
    the session that delegated it."""
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
    for s, depth in session_tree(infos):
        status = s.status + (f" until {s.wake_at[:16]}" if s.wake_at else "")
        tokens = f"{s.prompt_tokens}/{s.cached_tokens}/{s.completion_tokens}"
        updated = s.updated[:16].replace("T", " ")
        title = f"{'   ' * (depth - 1)}└─ [sub-agent of {s.parent}] {s.title}" if depth else s.title
        print(f"{s.id:<22}  {status:<10}  {updated:<16}  {tokens:>22}  {title}")


def session_tree(infos: list[SessionInfo]) -> list[tuple[SessionInfo, int]]:
    """The sessions in list order, each sub-agent's right under its parent (oldest first), with
    its depth; one whose parent is not listed stands at the top level."""
    listed = {s.id for s in infos}
    children: dict[str, list[SessionInfo]] = {}
    for s in infos:
        if s.parent and s.parent in listed:
            children.setdefault(s.parent, []).append(s)
    out: list[tuple[SessionInfo, int]] = []

    def add(s: SessionInfo, depth: int) -> None:
        out.append((s, depth))
        for child in sorted(children.get(s.id, []), key=lambda c: (c.created, c.id)):
            add(child, depth + 1)

    for s in infos:
        if not (s.parent and s.parent in listed):
            add(s, 0)
    return out


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
    """Print a session as Markdown (readable) or JSON (every event, as `--json` sends it), with
    links to the session that delegated it and to its sub-agents' sessions."""
    from hearth.history.export import export_session

    if fmt not in ("md", "json"):
        fail(ValueError(f"Unknown format {fmt!r}: use md or json."))
    store, sid, _ = open_session_store(workspace, session_id)
    try:
        sys.stdout.write(export_session(store, sid, fmt))
    finally:
        store.close()


@sessions_app.command("rm")
def sessions_rm(session_id: SessionArg, workspace: WorkspaceOpt = None) -> None:
    """Delete a session and all its events."""
    store, sid, _ = open_session_store(workspace, session_id)
    store.delete(sid)
    store.close()
    print(f"Deleted session {sid}.")
