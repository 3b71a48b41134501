"""`hearth memory`: list, show, edit and forget what Hearth remembers (per scope: project or user)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail

memory_app = typer.Typer(help="List, show and forget remembered items.", invoke_without_command=True)
ScopeOpt = Annotated[str, typer.Option("--scope", "-s", help="project (the workspace's) or user")]
IdArg = Annotated[int, typer.Argument(help="The item's id (from `hearth memory list`)")]


def _open(scope: str, workspace: Path | None):  # type: ignore[no-untyped-def]
    from hearth.core.errors import HearthError
    from hearth.runtime.memory_scopes import SCOPES, open_memory

    if scope not in SCOPES:
        fail(HearthError(f"Unknown scope {scope!r}.", "Use --scope project or --scope user."))
    try:
        return open_memory(scope, (workspace or Path.cwd()).resolve())
    except HearthError as exc:
        fail(exc)


@memory_app.callback()
def memory(ctx: typer.Context) -> None:
    """Remembered facts, learnings and preferences."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


@memory_app.command("list")
def list_items(
    workspace: WorkspaceOpt = None,
    scope: ScopeOpt = "project",
    limit: Annotated[int, typer.Option("--limit", "-n")] = 50,
) -> None:
    """List remembered items, newest first."""
    store = _open(scope, workspace)
    items = store.items(limit)
    if not items:
        print(f"Nothing remembered in the {scope} scope ({store.path}).")
    for it in items:
        first = it.text.splitlines()[0] if it.text else ""
        print(f"{it.id:>6}  {it.kind:<15}  {first[:80]}")
    store.close()


@memory_app.command("show")
def show(item_id: IdArg, workspace: WorkspaceOpt = None, scope: ScopeOpt = "project") -> None:
    """Show one item in full."""
    from hearth.core.errors import HearthError

    store = _open(scope, workspace)
    it = store.get(item_id)
    store.close()
    if it is None:
        fail(HearthError(f"No item {item_id} in the {scope} scope.", "See `hearth memory list`."))
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(it.created))
    print(f"id {it.id}  kind {it.kind}  stored {when}  session {it.session or '-'}")
    if it.tags:
        print(f"tags: {' '.join(it.tags)}")
    print()
    print(it.text)


@memory_app.command("forget")
def forget(item_id: IdArg, workspace: WorkspaceOpt = None, scope: ScopeOpt = "project") -> None:
    """Delete one item (its text, index entry and vector)."""
    from hearth.core.errors import HearthError

    store = _open(scope, workspace)
    removed = store.forget(item_id)
    store.close()
    if not removed:
        fail(HearthError(f"No item {item_id} in the {scope} scope.", "See `hearth memory list`."))
    print(f"Forgot item {item_id}.")


@memory_app.command("edit")
def edit(
    item_id: IdArg,
    text: Annotated[str, typer.Argument(help="The new text")],
    workspace: WorkspaceOpt = None,
    scope: ScopeOpt = "project",
) -> None:
    """Replace one item's text (re-indexed; re-embedded when the model is installed)."""
    from hearth.apps.cli.common import load_cli_settings
    from hearth.core.errors import HearthError
    from hearth.runtime.memory_scopes import memory_embedder

    store = _open(scope, workspace)
    store.embedder = memory_embedder(load_cli_settings(workspace=workspace).settings)
    res = store.edit(item_id, text)
    store.close()
    if res.id is None:
        fail(HearthError(res.notices[0], "See `hearth memory list`."))
    print("\n".join([f"Changed item {item_id}.", *res.notices]))


@memory_app.command("ingest")
def ingest_cmd(
    path: Annotated[str, typer.Argument(help="A folder or file in the workspace")] = ".",
    workspace: WorkspaceOpt = None,
) -> None:
    """Chunk a repository's text files into the project's memory, for memory_search (secrets skipped)."""
    from hearth.apps.cli.common import load_cli_settings
    from hearth.apps.cli.ingest import ingest
    from hearth.core.errors import HearthError
    from hearth.runtime.memory_scopes import memory_embedder

    try:
        embedder = memory_embedder(load_cli_settings(workspace=workspace).settings)
        done = ingest((workspace or Path.cwd()).resolve(), path, embedder)
    except HearthError as exc:
        fail(exc)
    print(
        f"Ingested {done.chunks} chunks from {done.files} files "
        f"({done.skipped} files skipped: secret, binary or too large; {done.refused} chunks held a secret)."
    )


@memory_app.command("reembed")
def reembed(workspace: WorkspaceOpt = None, scope: ScopeOpt = "project") -> None:
    """Embed every item that has no vector from the current embedder (after changing it)."""
    from hearth.apps.cli.common import load_cli_settings
    from hearth.core.errors import HearthError
    from hearth.runtime.memory_scopes import memory_embedder

    store = _open(scope, workspace)
    embedder = memory_embedder(load_cli_settings(workspace=workspace).settings)
    if embedder is None:
        store.close()
        fail(HearthError("No embedder is available: memory search is keyword-only.", "See `hearth doctor`."))
    store.embedder = embedder
    done = store.reembed()
    store.close()
    print(f"Embedded {done} items with {embedder.name}.")
